/**
 * Whether the Accept header asks for CSV rather than JSON: the acceptable media type of highest quality among
 * text/csv, application/json and the wildcards decides (JSON on a tie or without the header).
 */
export function prefersCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranked = accept
    .split(',')
    .map((part, order) => {
      const [type = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { type: type.trim(), q: q ? Number(q.slice(2)) : 1, order };
    })
    .filter((r) => r.q > 0 && ['text/csv', 'application/json', 'application/*', 'text/*', '*/*'].includes(r.type))
    .sort((a, b) => b.q - a.q || a.order - b.order);
  return ranked[0]?.type === 'text/csv' || ranked[0]?.type === 'text/*';
}
