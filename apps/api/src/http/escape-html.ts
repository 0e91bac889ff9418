/** Text written into HTML (a page, a mail), with the characters that could open markup or end an attribute escaped. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
