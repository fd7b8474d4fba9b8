/**
 * Hostile flags-as-code documents shared by the security suites.
 */

/** A flag whose metadata holds `anchors` anchors, each used 50 times: about 370 KiB for 1,000. */
export function anchorsUsed50Times(anchors: number): string {
  const lines = ['flags:', '- key: f', '  name: F', '  metadata:'];
  for (let i = 0; i < anchors; i++) lines.push(`    a${i}: &a${i} x`, `    b${i}: [${Array(50).fill(`*a${i}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}
