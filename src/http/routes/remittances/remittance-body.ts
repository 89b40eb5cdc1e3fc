import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { Tokenizer, TokenizerError, TokenParserError } from '@streamparser/json';
import { errorCodes } from 'fastify';
import secureJson from 'secure-json-parse';
import { BodyReader, readParsed, SECURE, type RemittanceBody, type Validators } from './body-reader.js';
import { BodyTokens } from './body-tokens.js';

/** Below this many bytes the body is parsed whole: JSON.parse is faster, and the parsed tree is small. */
const WHOLE_BODY_BYTES = 64 * 1024;

const isMalformed = (error: unknown) =>
  error instanceof SyntaxError || error instanceof TokenizerError || error instanceof TokenParserError;

const asRequestError = (error: unknown): Error => {
  if (!isMalformed(error)) return error instanceof Error ? error : new Error(String(error));
  const invalid = new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  invalid.cause = error;
  return invalid;
};

/** The streamed path: bytes decoded as UTF-8 (as Fastify decodes a body) and tokenized as they arrive. */
class Streamed {
  private readonly decoder = new StringDecoder('utf8');
  private readonly tokenizer = new Tokenizer();
  private readonly tokens: BodyTokens;
  private first = true;

  constructor(private readonly validators: Validators) {
    this.tokens = new BodyTokens(new BodyReader(validators));
    this.tokenizer.onToken = (info) => this.tokens.token(info);
    this.tokenizer.onError = (err) => {
      throw err;
    };
  }

  write(chunk: Buffer): void {
    let text = this.decoder.write(chunk);
    if (this.first && text.length > 0) {
      // A byte-order mark is skipped, as Fastify's JSON parser does.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.first = false;
    }
    if (text.length > 0) this.tokenizer.write(text);
  }

  end(): RemittanceBody {
    const rest = this.decoder.end();
    if (rest) this.tokenizer.write(rest);
    this.tokenizer.end();
    return this.tokens.finish(this.validators);
  }
}

/** One body being read: small ones are buffered and parsed whole, larger ones streamed from 64 KiB on. */
class BodyRead {
  private received = 0;
  private small: Buffer[] | null = [];
  private streamed: Streamed | null = null;

  constructor(
    private readonly validators: Validators,
    readonly limit: number,
  ) {}

  /** False once over the limit. */
  add(chunk: Buffer): boolean {
    this.received += chunk.length;
    if (this.received > this.limit) return false;
    if (this.small && this.received <= WHOLE_BODY_BYTES) {
      this.small.push(chunk);
      return true;
    }
    if (this.small) {
      this.streamed = new Streamed(this.validators);
      for (const piece of this.small) this.streamed.write(piece);
      this.small = null;
    }
    this.streamed!.write(chunk);
    return true;
  }

  get bytes(): number {
    return this.received;
  }

  end(): RemittanceBody {
    if (!this.small) return this.streamed!.end();
    const body: unknown = secureJson.parse(Buffer.concat(this.small, this.received).toString('utf8'), null, SECURE);
    return readParsed(this.validators, body);
  }
}

/**
 * Reads POST /remittances' body from the request stream within `limit` bytes (413 past it, as Fastify's own parser
 * answers), as a RemittanceBody. Malformed JSON, an empty body and a Content-Length that does not match are the
 * errors Fastify's JSON parser raises (docs/decisions/0079-remittance-body-streamed.md).
 */
export function readRemittanceBody(
  payload: Readable,
  contentLengthHeader: string | undefined,
  limit: number,
  validators: Validators,
): Promise<RemittanceBody> {
  const contentLength = Number(contentLengthHeader);
  if (contentLength > limit) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const read = new BodyRead(validators, limit);
  return new Promise((resolve, reject) => {
    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
    };
    function onData(chunk: Buffer | string) {
      try {
        // Past the limit the rest is left unread: the error handler drains it before answering 413.
        if (read.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) return;
        stop();
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      } catch (error) {
        stop();
        reject(asRequestError(error));
      }
    }
    function onEnd(err?: Error & { statusCode?: number }) {
      stop();
      try {
        resolve(finish(read, contentLength, err));
      } catch (error) {
        reject(asRequestError(error));
      }
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  });
}

function finish(read: BodyRead, contentLength: number, err?: Error & { statusCode?: number }): RemittanceBody {
  if (err) {
    if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
    throw err;
  }
  if (!Number.isNaN(contentLength) && read.bytes !== contentLength)
    throw new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH();
  if (read.bytes === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  return read.end();
}
