import { TokenParser, TokenType as Lexeme, type ParsedTokenInfo } from '@streamparser/json';
import { scan, wholeBodyFindings, type BodyReader, type RemittanceBody, type Validators } from './body-reader.js';

const enum State {
  Start,
  Key,
  KeyOrEnd,
  Colon,
  Value,
  AfterValue,
  EntryOrEnd,
  Entry,
  AfterEntry,
  Done,
}

const CLOSING = new Set([Lexeme.COLON, Lexeme.COMMA, Lexeme.RIGHT_BRACE, Lexeme.RIGHT_BRACKET]);

/** A TokenParser that assembles one value; `done` holds it once complete. */
function valueParser(): { parser: TokenParser; done: { value: unknown } | null } {
  const assembled: { parser: TokenParser; done: { value: unknown } | null } = {
    parser: new TokenParser({ paths: ['$'] }),
    done: null,
  };
  assembled.parser.onValue = ({ value, stack }) => {
    if (stack.length === 0) assembled.done = { value };
  };
  assembled.parser.onError = (err) => {
    throw err;
  };
  return assembled;
}

/**
 * The top level of a body token by token (the tokens of @streamparser/json's Tokenizer): each member's value and
 * each entry of `remittances` is assembled by a TokenParser and handed to the reader whole, so the array itself is
 * never built. Throws on malformed JSON.
 */
export class BodyTokens {
  private state = State.Start;
  private key = '';
  private value: ReturnType<typeof valueParser> | null = null;
  /** A body that is not an object, assembled whole. */
  private root: ReturnType<typeof valueParser> | null = null;

  constructor(private readonly reader: BodyReader) {}

  token(info: ParsedTokenInfo): void {
    if (this.root) this.root.parser.write(info);
    else if (this.value) this.continueValue(info);
    else this.structure(info);
  }

  private continueValue(info: ParsedTokenInfo): void {
    const value = this.value!;
    value.parser.write(info);
    if (!value.done) return;
    this.value = null;
    if (this.state === State.Value) {
      this.reader.member(this.key, value.done.value);
      this.state = State.AfterValue;
    } else {
      this.reader.entry(value.done.value);
      this.state = State.AfterEntry;
    }
  }

  private structure(info: ParsedTokenInfo): void {
    const kind = info.token;
    switch (this.state) {
      case State.Start:
        if (kind === Lexeme.LEFT_BRACE) this.state = State.KeyOrEnd;
        else {
          this.root = valueParser();
          this.root.parser.write(info);
        }
        return;
      case State.KeyOrEnd:
      case State.Key:
        return this.memberName(info);
      case State.Colon:
        if (kind !== Lexeme.COLON) throw new SyntaxError('expected a colon');
        this.state = State.Value;
        return;
      case State.Value:
        if (this.key === 'remittances' && kind === Lexeme.LEFT_BRACKET) {
          this.reader.startEntries();
          this.state = State.EntryOrEnd;
        } else this.assemble(info);
        return;
      default:
        return this.separator(info);
    }
  }

  private memberName(info: ParsedTokenInfo): void {
    const kind = info.token;
    if (kind === Lexeme.STRING) {
      this.key = info.value as string;
      this.state = State.Colon;
    } else if (kind === Lexeme.RIGHT_BRACE && this.state === State.KeyOrEnd) this.state = State.Done;
    else throw new SyntaxError('expected a member name');
  }

  private separator(info: ParsedTokenInfo): void {
    const kind = info.token;
    switch (this.state) {
      case State.EntryOrEnd:
      case State.Entry:
        if (kind === Lexeme.RIGHT_BRACKET && this.state === State.EntryOrEnd) this.state = State.AfterValue;
        else {
          this.state = State.Entry;
          this.assemble(info);
        }
        return;
      case State.AfterEntry:
        if (kind === Lexeme.COMMA) this.state = State.Entry;
        else if (kind === Lexeme.RIGHT_BRACKET) this.state = State.AfterValue;
        else throw new SyntaxError('expected a comma or the end of the array');
        return;
      case State.AfterValue:
        if (kind === Lexeme.COMMA) this.state = State.Key;
        else if (kind === Lexeme.RIGHT_BRACE) this.state = State.Done;
        else throw new SyntaxError('expected a comma or the end of the object');
        return;
      default:
        throw new SyntaxError('unexpected data after the body');
    }
  }

  /** A value begins: a primitive completes at once; the state tells continueValue where it belongs. */
  private assemble(info: ParsedTokenInfo): void {
    if (CLOSING.has(info.token)) throw new SyntaxError('expected a value');
    this.value = valueParser();
    this.continueValue(info);
  }

  finish(validators: Validators): RemittanceBody {
    if (this.root) {
      if (!this.root.done) throw new SyntaxError('unexpected end of the body');
      scan(this.root.done.value);
      return wholeBodyFindings(validators, this.root.done.value);
    }
    if (this.state !== State.Done) throw new SyntaxError('unexpected end of the body');
    return this.reader.finish();
  }
}
