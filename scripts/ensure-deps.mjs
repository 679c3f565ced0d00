// Installs the project's npm dependencies when they are missing or were installed from another
// package-lock.json, so `npm start` and `npm test` work on a fresh clone without a separate
// install step.
//
// "Installed from this lock" is decided by content, not by modification times: every install
// (this script's `npm ci`, and any `npm ci`/`npm install` through the postinstall hook, which
// runs `node scripts/ensure-deps.mjs --record`) stores the SHA-256 of package-lock.json in
// node_modules/.stacks-lock-hash. A checkout, merge or `touch` that leaves the lock's content
// alone therefore triggers nothing, and an interrupted install (no hash yet) is redone.
//
// node_modules that is a symbolic link (a git worktree sharing another checkout's install) is
// never reinstalled: `npm ci` would empty the shared folder under every other user of it.
import { createHash } from 'node:crypto';
import { execSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';

const LOCK = 'package-lock.json';
const HASH_FILE = 'node_modules/.stacks-lock-hash';

function lockHash() {
  return createHash('sha256').update(readFileSync(LOCK)).digest('hex');
}

function storedHash() {
  try {
    return readFileSync(HASH_FILE, 'utf8').trim();
  } catch {
    return null;
  }
}

/** lstat, not exists: a link whose target is gone is still a link, not a missing folder. */
function isSymbolicLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function record() {
  writeFileSync(HASH_FILE, `${lockHash()}\n`);
}

if (process.argv.includes('--record')) {
  // postinstall: npm has just installed from this lock (none when installed as a package).
  if (existsSync('node_modules') && existsSync(LOCK)) record();
} else if (storedHash() !== lockHash()) {
  if (isSymbolicLink('node_modules')) {
    console.log(
      'Note: node_modules is a symbolic link (a shared install) and was not installed from this ' +
        `${LOCK}; not reinstalling through the link. Run \`npm ci\` where it points if the dependencies changed.`,
    );
  } else {
    console.log('Installing dependencies (npm ci)…');
    execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
    record();
  }
}
