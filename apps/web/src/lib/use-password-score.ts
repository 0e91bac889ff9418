import { useEffect, useState } from 'react';
import type { ZxcvbnScore } from './password-strength';

type Scorer = (password: string) => ZxcvbnScore;

let scorer: Promise<Scorer> | undefined;

/** zxcvbn and its dictionaries weigh several hundred kB: they load only once a password is typed. */
function loadScorer(): Promise<Scorer> {
  scorer ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(([core, common, english]) => {
    const factory = new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...english.dictionary },
      graphs: common.adjacencyGraphs,
      translations: english.translations,
    });
    return (password) => factory.check(password).score;
  });
  scorer.catch(() => {
    scorer = undefined;
  });
  return scorer;
}

/** zxcvbn's score of the password, or null while it is empty or the scorer is still loading. */
export function usePasswordScore(password: string): ZxcvbnScore | null {
  const [loaded, setLoaded] = useState<Scorer | null>(null);
  useEffect(() => {
    if (!password || loaded) return;
    let active = true;
    // A failed load leaves the meter hidden; the policy rules still guard the form.
    loadScorer().then(
      (score) => active && setLoaded(() => score),
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [password, loaded]);
  return loaded && password ? loaded(password) : null;
}
