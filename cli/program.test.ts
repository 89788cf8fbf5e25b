import { describe, expect, it } from 'vitest';
import { helpText, readCommandLine } from './program.js';

describe('the voice-kit command line: one cac parser for both commands, read strictly', () => {
  it.each([
    [['mock', '--port', '0', '--seed', '007', '--no-cors'], { port: '0', seed: '007', cors: false }],
    [['mock'], { host: '127.0.0.1', cors: true }],
    [['mock', '--host=::1', '--config', 'a b.json'], { host: '::1', config: 'a b.json' }],
    [['conformance', '--api-key', '0123', '--key-other-org', '-x1'], { apiKey: '0123', keyOtherOrg: '-x1' }],
    [['conformance', '--api-key', '', '--report-dir='], { apiKey: '', reportDir: '' }],
    [['conformance', '--only', 'a', '--only=b,c', '--list'], { only: ['a', 'b,c'], list: true }],
  ])('%j → options %j, no problem', (argv, options) => {
    const line = readCommandLine(argv);
    expect(line.problems).toEqual([]);
    expect(line.options).toMatchObject(options);
  });

  it('gives no seed unless one is asked for (voice_urls are then signed with a random secret)', () => {
    expect(readCommandLine(['mock']).options).not.toHaveProperty('seed');
  });

  it.each([
    [['mock', '--prot', '1'], /^unknown flag --prot \(did you mean --port\?\); known flags: --port, --host/],
    [['mock', '--cors'], /^unknown flag --cors/],
    [['mock', '--port'], /^--port needs a value$/],
    [['mock', '--port', '1', '--port', '2'], /^--port is given twice$/],
    [['mock', '--no-cors=1'], /^--no-cors takes no value \(got "1"\)$/],
    [['mock', 'now'], /^unexpected argument "now"$/],
    [['conformance', '--allow-billable', 'false'], /^unexpected argument "false"$/],
    [['conformance', '--list', '--', 'x'], /^arguments after "--" are not read: "x"$/],
    [['serve'], /^unknown command "serve"; commands: mock, conformance, proxy$/],
    [['--port', '1'], /^unknown flag --port; known flags: --help, --version$/],
    [['mok'], /^unknown command "mok" \(did you mean mock\?\); commands: mock, conformance, proxy$/],
    [['conformace'], /^unknown command "conformace" \(did you mean conformance\?\)/],
  ])('%j → %s', (argv, problem) => {
    const { problems } = readCommandLine(argv);
    expect(
      problems.some((p) => problem.test(p)),
      problems.join('\n'),
    ).toBe(true);
  });

  it('-h and --help are read for the command and for voice-kit alone', () => {
    expect(readCommandLine(['mock', '--prot', '-h'])).toMatchObject({
      help: true,
      command: { name: 'mock' },
    });
    expect(readCommandLine(['--help'])).toMatchObject({ help: true, command: undefined });
  });

  it('the help of conformance names every variable and the exit codes; the others list their flags', () => {
    const conformance = helpText('conformance');
    for (const variable of ['VOICE_KIT_BASE_URL', 'VOICE_KIT_ALLOW_BILLABLE', 'VOICE_KIT_REPORT_DIR'])
      expect(conformance).toContain(variable);
    expect(conformance).toMatch(/--list +Print every case id/);
    expect(conformance).toMatch(/Exit codes: 0 every must case passed;.*2 usage error/);
    expect(helpText('mock')).toMatch(
      /--port <port> +Port to listen on.*\(default: VOICE_KIT_PORT, else 4010\)/,
    );
    expect(helpText('mock').match(/VOICE_KIT_\w+/g)).toEqual(['VOICE_KIT_PORT']);
    expect(readCommandLine(['mock']).options.port).toBeUndefined();
    expect(helpText()).toMatch(/mock +Run the stateful mock[\s\S]*conformance +Run the conformance suite/);
  });
});
