import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * The offline EN 16931 / XRechnung 3.0 validator (XML Schema, CEN Schematron, KoSIT XRechnung Schematron with the
 * Peppol rules KoSIT adopts), the way the official KoSIT validator checks e-invoices. It lives beside the clone, in
 * `../shared/vendor/einvoice` (its README says where each rule set comes from), and runs on Debian's Saxon-HE and a
 * Java runtime, which `.ci/run` installs. `EINVOICE_VALIDATOR_DIR` names another copy.
 */
const repoRoot = resolve(import.meta.dirname, '../../../..');
export const VALIDATOR_DIR =
  process.env.EINVOICE_VALIDATOR_DIR ?? resolve(repoRoot, '../shared/vendor/einvoice');
const SCRIPT = join(VALIDATOR_DIR, 'validate-einvoice.sh');
const SAXON = process.env.SAXON_JAR ?? '/usr/share/java/Saxon-HE.jar';

/** Why the validator cannot run here, with what to do about it; null when it can. */
export function validatorMissing(): string | null {
  if (!existsSync(SCRIPT))
    return (
      `The e-invoice validator was not found at ${VALIDATOR_DIR}. It is kept beside the clone as ` +
      '../shared/vendor/einvoice (the folder .ci/run finds next to the repository); copy that folder there, or ' +
      'set EINVOICE_VALIDATOR_DIR to a copy of it.'
    );
  if (!existsSync(SAXON))
    return (
      `Saxon-HE was not found at ${SAXON}. Install it and a Java runtime with: ` +
      'apt-get install -y --no-install-recommends libsaxonhe-java default-jre-headless poppler-utils'
    );
  return null;
}

export interface Finding {
  set: string;
  level: 'error' | 'warning' | 'information';
  id: string;
  text: string;
}

export interface Verdict {
  accepted: boolean;
  errors: Finding[];
  warnings: Finding[];
}

/**
 * Validates a batch of e-invoices (CII or UBL XML, or Factur-X PDFs with their XML inside) in one run of the
 * validator: one Java process compiles each rule set once for all of them. `next` uses the next rule versions
 * (CEN 1.3.16 and the XRechnung Schematron after 2.5.0). Returns each file's verdict by its name.
 */
export async function validateEInvoices(
  files: Record<string, string | Buffer>,
  options: { next?: boolean } = {},
): Promise<Map<string, Verdict>> {
  const dir = mkdtempSync(join(tmpdir(), 'ww-einvoice-'));
  try {
    const paths = Object.entries(files).map(([name, content]) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    });
    const args = ['--tsv', ...(options.next ? ['--next'] : []), ...paths];
    const output = await promisify(execFile)('bash', [SCRIPT, ...args], { maxBuffer: 64 * 1024 * 1024 }).then(
      (r) => r.stdout,
      // Exit status 1 means "a document was rejected": the report is still on standard output.
      (error: { code?: number; stdout?: string; stderr?: string }) => {
        if (error.code === 1 && error.stdout) return error.stdout;
        throw new Error(`validate-einvoice.sh failed (${error.code}): ${error.stderr ?? ''}`);
      },
    );
    return parseReport(output, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The TSV report: `KEY FILE path` names each document, `KEY MSG set level id flag location text` its findings. */
function parseReport(output: string, dir: string): Map<string, Verdict> {
  const nameOf = new Map<string, string>();
  const verdicts = new Map<string, Verdict>();
  for (const line of output.split('\n')) {
    const [key, kind, ...rest] = line.split('\t');
    if (!key || !kind) continue;
    if (kind === 'FILE') {
      const name = rest[0]!.slice(dir.length + 1);
      nameOf.set(key, name);
      verdicts.set(name, { accepted: true, errors: [], warnings: [] });
    } else if (kind === 'MSG') {
      const [set, level, id, , , text] = rest;
      const verdict = verdicts.get(nameOf.get(key) ?? '');
      if (!verdict) continue;
      const finding = { set: set!, level: level as Finding['level'], id: id!, text: text ?? '' };
      if (finding.level === 'error') {
        verdict.errors.push(finding);
        verdict.accepted = false;
      } else if (finding.level === 'warning') verdict.warnings.push(finding);
    }
  }
  return verdicts;
}
