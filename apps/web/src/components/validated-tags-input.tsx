import { Pill, TagsInput } from '@mantine/core';

interface ValidatedTagsInputProps {
  label: string;
  description?: string;
  placeholder?: string;
  value: string[];
  /** Called with the tags after a change; the caller splits, trims and deduplicates them. */
  onChange: (tags: string[]) => void;
  onBlur?: () => void;
  isValid: (tag: string) => boolean;
  /** Shown under the field while any tag is not valid. */
  invalidMessage: string;
  /** Another message for the field (a server's refusal), shown when every tag is valid. */
  error?: string;
  /** The accessible name of a tag's remove button. */
  removeLabel: (tag: string) => string;
  maxTags?: number;
  /** Characters that end a tag while typing, and split a paste. */
  splitChars?: string[];
  required?: boolean;
}

/** A list of values as tags (addresses, domains): tags that are not valid show red, with a message. */
export function ValidatedTagsInput({
  label,
  description,
  placeholder,
  value,
  onChange,
  onBlur,
  isValid,
  invalidMessage,
  error,
  removeLabel,
  maxTags,
  splitChars = [',', ';'],
  required = false,
}: ValidatedTagsInputProps) {
  const anyInvalid = value.some((tag) => !isValid(tag));
  return (
    <TagsInput
      label={label}
      description={description}
      placeholder={value.length === 0 ? placeholder : undefined}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      maxTags={maxTags}
      splitChars={splitChars}
      error={anyInvalid ? invalidMessage : error}
      required={required}
      clearable
      renderPill={({ value: tag, onRemove }) => {
        const valid = tag !== undefined && isValid(tag);
        return (
          <Pill
            withRemoveButton
            onRemove={onRemove}
            bg={valid ? undefined : 'red.1'}
            c={valid ? undefined : 'red.9'}
            removeButtonProps={{ 'aria-label': removeLabel(tag ?? '') }}
          >
            {tag}
          </Pill>
        );
      }}
    />
  );
}
