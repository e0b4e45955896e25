import type { FastifyReply } from 'fastify';

/**
 * Answers with a scanned paper (an LPO, a signed delivery note): sent by someone outside the shop,
 * so never cached, never sniffed into another type, and opened in a sandbox (no script, no
 * same-origin) whatever a crafted file holds.
 */
export async function sendScan(
  reply: FastifyReply,
  scan: { bytes: Buffer; contentType: string; filename: string },
): Promise<void> {
  await reply
    .header('Content-Type', scan.contentType)
    .header('Content-Disposition', `inline; filename="${scan.filename}"`)
    .header('Cache-Control', 'private, no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', 'sandbox')
    .send(scan.bytes);
}
