/**
 * The top entries of a V8 CPU profile (`.cpuprofile`, from `node --cpu-prof` or the bench's
 * BENCH_PROFILE=1): self time per function and per package, as shares of the time the process was
 * busy (idle time left out). Usage: `npx tsx tools/bench/profile-summary.ts <file.cpuprofile> [top]`.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  functions: { name: string; ms: number; share: number }[];
  packages: { name: string; ms: number; share: number }[];
}

/** Where a function lives: its npm package, the API's own code, node's internals, or V8's buckets. */
function packageOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  if (url.startsWith('node:')) return 'node (internals)';
  const api = /api\/dist\/(.*)$/.exec(url);
  if (api) return `api: ${api[1]!.split('/')[0]!.replace(/\.js$/, '')}`;
  return url;
}

export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  let idleUs = 0;
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byNode.get(id)!.callFrame;
    if (functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    busyUs += us;
    const where = url
      ? ` ${url.replace(/^.*?(node_modules\/|api\/dist\/)/, '$1')}:${lineNumber + 1}`
      : '';
    const name = `${functionName || '(anonymous)'}${where}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
    const pkg = packageOf(url, functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  }
  const rank = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, share: busyUs ? us / busyUs : 0 }));
  return {
    busyMs: busyUs / 1000,
    idleMs: idleUs / 1000,
    functions: rank(functions),
    packages: rank(packages),
  };
}

export function printProfileSummary(title: string, summary: ProfileSummary): void {
  console.log(
    `\n${title}: busy ${(summary.busyMs / 1000).toFixed(1)} s, idle ${(summary.idleMs / 1000).toFixed(1)} s`,
  );
  console.log('| self time, by package | ms | share of busy |\n|---|---:|---:|');
  for (const p of summary.packages)
    console.log(`| ${p.name} | ${p.ms.toFixed(0)} | ${(p.share * 100).toFixed(1)}% |`);
  console.log('\n| self time, by function | ms | share of busy |\n|---|---:|---:|');
  for (const f of summary.functions)
    console.log(`| ${f.name} | ${f.ms.toFixed(0)} | ${(f.share * 100).toFixed(1)}% |`);
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx tools/bench/profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  printProfileSummary(file, summarizeProfile(file, Number(top ?? 15)));
}
