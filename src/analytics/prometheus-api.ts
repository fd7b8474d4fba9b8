/**
 * Prometheus's HTTP query API (`/api/v1/query`, `/api/v1/query_range`), as the Prometheus analytics mode needs it:
 * POSTed forms (a batch's flag list does not fit a URL), the configured headers, one deadline for the whole answer
 * and a bound on its size. Whatever goes wrong (no answer, a 4xx or 5xx, a body that is not Prometheus's JSON, one too
 * large) is an UnavailableError (503) saying what, never a 500; neither the URL's credentials nor the headers are in
 * the message. Nest-free.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { UnavailableError } from '../common/errors';
import type { MatrixSeries, VectorSample } from './promql';

/** Most bytes of one answer: 10,000 steps of a few hundred series fit well within it. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
/** Most characters of Prometheus's own error message repeated in ours. */
const MAX_ERROR_CHARS = 300;

export interface PrometheusApiOptions {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxBytes?: number;
}

export class PrometheusApi {
  private readonly base: URL;
  private readonly agent: HttpAgent;
  private readonly maxBytes: number;

  constructor(private readonly options: PrometheusApiOptions) {
    this.base = new URL(options.url.endsWith('/') ? options.url : `${options.url}/`);
    this.agent = this.base.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.maxBytes = options.maxBytes ?? MAX_ANSWER_BYTES;
  }

  /** `query_range` from `start` to `end` (Unix seconds, both evaluated) every `stepSeconds`. */
  async range(query: string, start: number, end: number, stepSeconds: number): Promise<MatrixSeries[]> {
    return (await this.post('api/v1/query_range', { query, start: String(start), end: String(end), step: String(stepSeconds) }, 'matrix')) as MatrixSeries[];
  }

  /** An instant query at `time` (Unix seconds), or at Prometheus's now. */
  async instant(query: string, time?: number): Promise<VectorSample[]> {
    return (await this.post('api/v1/query', { query, ...(time === undefined ? {} : { time: String(time) }) }, 'vector')) as VectorSample[];
  }

  close(): void {
    this.agent.destroy();
  }

  private async post(path: string, form: Record<string, string>, resultType: string): Promise<unknown[]> {
    const { status, body } = await this.send(new URL(path, this.base), new URLSearchParams(form).toString());
    let answer: { status?: unknown; data?: { resultType?: unknown; result?: unknown }; error?: unknown };
    try {
      answer = JSON.parse(body) as typeof answer;
    } catch {
      throw unavailable(`answered ${status} with a body that is not JSON`);
    }
    if (status !== 200 || answer?.status !== 'success') {
      const why = typeof answer?.error === 'string' ? `: ${answer.error.slice(0, MAX_ERROR_CHARS)}` : '';
      throw unavailable(`answered ${status}${why}`);
    }
    if (answer.data?.resultType !== resultType || !Array.isArray(answer.data.result)) {
      throw unavailable(`answered with a ${String(answer.data?.resultType)} where a ${resultType} was expected`);
    }
    return answer.data.result;
  }

  private send(url: URL, form: string): Promise<{ status: number; body: string }> {
    const { timeoutMs } = this.options;
    return new Promise((resolve, reject) => {
      let req: ClientRequest | undefined;
      // One deadline for connecting, asking and reading the whole answer.
      const deadline = setTimeout(() => fail(unavailable(`did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(deadline);
        return true;
      };
      const fail = (e: Error): void => {
        if (!settle()) return;
        req?.destroy();
        reject(e);
      };
      const done = (answer: { status: number; body: string }): void => {
        if (settle()) resolve(answer);
      };
      try {
        req = this.request(url, form, done, fail);
      } catch {
        // Node refuses a header name or value it cannot send; which one is not repeated (it may be a credential).
        return fail(unavailable('cannot be asked: analytics.storage.prometheus.headers holds a header Node.js cannot send'));
      }
      req.on('error', (e: NodeJS.ErrnoException) => fail(unavailable(`could not be reached (${e.code ?? e.message})`)));
      req.end(form);
    });
  }

  private request(url: URL, form: string, done: (answer: { status: number; body: string }) => void, fail: (e: Error) => void): ClientRequest {
    const headers = {
      ...this.options.headers,
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(form)),
    };
    return (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: 'POST', agent: this.agent, headers }, (res: IncomingMessage) => {
      if (Number(res.headers['content-length']) > this.maxBytes) return fail(tooLarge(this.maxBytes));
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > this.maxBytes) return fail(tooLarge(this.maxBytes));
        chunks.push(chunk);
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (e) => fail(unavailable(`broke off its answer (${e.message})`)));
    });
  }
}

function unavailable(what: string): UnavailableError {
  return new UnavailableError(`analytics are read from Prometheus (analytics.storage.prometheus), which ${what}`);
}

function tooLarge(maxBytes: number): UnavailableError {
  return unavailable(`answered with more than ${maxBytes / 1024 / 1024} MiB; ask for fewer flags or a shorter range`);
}
