import { describe, expect, it } from 'vitest';
import { oneLine } from './one-line.js';

describe('oneLine', () => {
  it('escapes newlines, terminal escapes, separators and bidirectional controls', () => {
    expect(oneLine('a\nb\r\tc')).toBe('a\\nb\\r\\tc');
    expect(oneLine('\u001b[31mred')).toBe('\\u001b[31mred');
    expect(oneLine('x\u2028y\u202ez\u0085')).toBe('x\\u2028y\\u202ez\\u0085');
  });

  it('leaves printable text alone, non-ASCII letters included', () => {
    expect(oneLine('Unexpected token \'é\', "ü" is not valid JSON')).toBe(
      'Unexpected token \'é\', "ü" is not valid JSON',
    );
  });

  it('puts a JSON.parse error of a file with line breaks on one line', () => {
    let message = '';
    try {
      JSON.parse('nul\n\n\u001b[31mred\n');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('\n');
    expect(oneLine(message)).not.toContain('\n');
    expect(oneLine(message)).not.toContain('\u001b');
  });
});
