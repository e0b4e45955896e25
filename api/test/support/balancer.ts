/**
 * A small round-robin HTTP balancer, as a load balancer in front of API replicas: each request goes
 * to the next upstream in turn, its body and headers as sent. Daraja's callbacks and the test's own
 * calls through it are spread over every instance.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';

export class Balancer {
  /** How many requests each upstream was given, by its index. */
  readonly served: number[];
  private next = 0;
  private readonly server: http.Server;

  private constructor(private readonly upstreams: { port: number }[]) {
    this.served = upstreams.map(() => 0);
    this.server = http.createServer((req, res) => {
      const i = this.next++ % this.upstreams.length;
      this.served[i]!++;
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: this.upstreams[i]!.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (error) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`balancer: ${error.message}`);
      });
      req.pipe(upstream);
    });
    this.server.keepAliveTimeout = 1000;
  }

  /** A balancer on a free local port over `upstreams` (their ports may be set later). */
  static async start(upstreams: { port: number }[]): Promise<Balancer> {
    const b = new Balancer(upstreams);
    await new Promise<void>((resolve) => b.server.listen(0, '127.0.0.1', resolve));
    return b;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  http() {
    return request(this.baseUrl);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
