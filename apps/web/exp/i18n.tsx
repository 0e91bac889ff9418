import { createRoot } from 'react-dom/client';
import i18next from 'i18next'; import { initReactI18next, useTranslation } from 'react-i18next';
const i = i18next.createInstance(); void i.use(initReactI18next).init({lng:'en', resources:{en:{translation:{a:'A {{x}}'}}}, initAsync:false});
function A(){ const {t}=useTranslation(); return <p>{t('a',{x:1})}</p>; }
createRoot(document.getElementById('root')!).render(<A/>);
