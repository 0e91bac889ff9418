export function Component(){return <p>lazy</p>}
