/** The lines of one metric family in Prometheus text (from its `# HELP` to the blank line), or undefined. */
export function metricFamily(text: string, name: string): string | undefined {
  const start = text.indexOf(`# HELP ${name} `);
  if (start === -1) return undefined;
  const end = text.indexOf('\n\n', start);
  return text.slice(start, end === -1 ? text.length - 1 : end);
}
