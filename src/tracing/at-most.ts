/** Waits for `work` at most `ms` (its failure ignored): what closing waits for an exporter whose receiver is silent. */
export async function atMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([work.catch(() => undefined), waited]);
  clearTimeout(timer);
}
