// The media id in an upload's reply ({data: {id}}, as JSON:API replies carry it), when it names
// one. The interface does not show the upload's reply, so nothing else of it is relied on.
export function mediaIdOfReply(reply: unknown): number | undefined {
  const id = (reply as { data?: { id?: unknown } } | null)?.data?.id;
  const value = typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
