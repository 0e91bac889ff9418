import { createRoot } from 'react-dom/client';
import { useForm } from 'react-hook-form';
function A(){ const { register, handleSubmit, formState:{errors, isDirty} } = useForm({defaultValues:{a:''}}); return <form onSubmit={handleSubmit(v=>console.log(v))}><input {...register('a',{required:'x'})}/>{errors.a?.message}{String(isDirty)}</form>; }
createRoot(document.getElementById('root')!).render(<A/>);
