/** The repository's root folder. */
export const root: string;
/** What the consumer installs beside the tarball (the latest of each). */
export const consumerDependencies: readonly string[];
/** The environment of a child that must not see this repository, with `nodeBin` first on its PATH. */
export function cleanEnv(nodeBin: string): Record<string, string>;
/** The kit packed into `dest`: the tarball's path, its files, packed and unpacked size in bytes. */
export function packKit(
  dest: string,
  env: Record<string, string>,
): Promise<{ tarball: string; files: string[]; size: number; unpackedSize: number }>;
/** Writes a consumer project (package.json, tsconfig.json, vitest config, its tests) into `dir`. */
export function writeProject(dir: string): void;
