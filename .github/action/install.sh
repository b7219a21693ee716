#!/usr/bin/env bash
# The install steps of the conform GitHub Action (action.yml): put a conform
# binary into BIN_DIR and BIN_DIR on $GITHUB_PATH, so that a job does not
# compile conform when it need not. Tested by TestActionInstallScript in
# cmd/conform/main_test.go, against a local directory laid out as a release.
#
#   install.sh release  when ACTION_REF is a release tag (vX.Y.Z): download
#                       the release's archive for this runner, its
#                       checksums.txt and the signature of that
#                       (checksums.txt.sigstore.json); check the signature
#                       with cosign, then the archive's SHA-256, unpack.
#                       Exit 0 with "source=release" on $GITHUB_OUTPUT; exit 3
#                       when there is no such release (build instead); exit
#                       1 when the signature is missing or is not the
#                       release workflow's, or the archive does not match
#                       its checksum: checksums.txt comes with the archive,
#                       so only the signature ties the two to the workflow.
#   install.sh key      print "key=..." on $GITHUB_OUTPUT: the cache key of
#                       a build (the commit when ACTION_REF is one, else a
#                       digest of the action's source).
#   install.sh build    build conform from ACTION_PATH with the version and
#                       revision stamped in (a tree without .git records
#                       none of its own), unless BIN_DIR already holds it
#                       (restored from the cache) with the SHA-256 recorded
#                       beside it when it was built (conform.sha256); a
#                       binary that does not match is rebuilt.
#
# release and build print "sha256=..." on $GITHUB_OUTPUT: the digest of the
# binary installed, which the run step checks before each command it runs
# (run.sh, CONFORM_SHA256). A step's outputs are fixed when it ends, so the
# implementation the run step starts cannot change the digest it is checked
# against. action.yml saves the cache right after the build, before any
# implementation runs.
#
# Environment: ACTION_PATH, ACTION_REF, ACTION_REPO (github.action_path,
# github.action_ref, github.action_repository), RUNNER_OS, RUNNER_ARCH,
# BIN_DIR, RELEASE_URL (default https://github.com/ACTION_REPO/releases/download)
# and RELEASE_KEY: a cosign public key that signed the release instead of the
# release workflow's keyless identity (a mirror's, or a test's, which cannot
# reach Sigstore).
set -euo pipefail

ref=${ACTION_REF:-}
bin_dir=${BIN_DIR:?BIN_DIR is not set}
exe=conform
[[ ${RUNNER_OS:-Linux} == Windows ]] && exe=conform.exe

# sha256 prints the SHA-256 of the files named (of stdin without one), one
# "DIGEST  NAME" line each: sha256sum on Linux, shasum on macOS.
sha256() {
  if command -v sha256sum > /dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi
}

output() {
  [[ -n ${GITHUB_OUTPUT:-} ]] && echo "$1" >> "$GITHUB_OUTPUT"
  echo "$1"
}

on_path() {
  [[ -n ${GITHUB_PATH:-} ]] && echo "$bin_dir" >> "$GITHUB_PATH"
  output "sha256=$(sha256 "$bin_dir/$exe" | cut -d' ' -f1)"
  "$bin_dir/$exe" version
}

case ${1:-} in
release)
  if [[ ! $ref =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    echo "conform: $ref is not a release tag: building from source" >&2
    exit 3
  fi
  case ${RUNNER_OS:-Linux} in Linux) os=linux ;; macOS) os=darwin ;; Windows) os=windows ;; *) echo "conform: no release for runner OS ${RUNNER_OS}" >&2; exit 3 ;; esac
  case ${RUNNER_ARCH:-X64} in X64) arch=amd64 ;; ARM64) arch=arm64 ;; *) echo "conform: no release for runner arch ${RUNNER_ARCH}" >&2; exit 3 ;; esac
  ext=tar.gz
  [[ $os == windows ]] && ext=zip
  name="conform_${ref#v}_${os}_${arch}.$ext"
  base="${RELEASE_URL:-https://github.com/${ACTION_REPO:?ACTION_REPO is not set}/releases/download}/$ref"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  if ! curl -fsSL --retry 3 -o "$tmp/checksums.txt" "$base/checksums.txt" || ! curl -fsSL --retry 3 -o "$tmp/$name" "$base/$name"; then
    echo "conform: no release archive $name at $base: building from source" >&2
    exit 3
  fi
  if ! curl -fsSL --retry 3 -o "$tmp/checksums.txt.sigstore.json" "$base/checksums.txt.sigstore.json"; then
    echo "conform: the release $ref has no signature of its checksums.txt (checksums.txt.sigstore.json): not installed" >&2
    exit 1
  fi
  if ! command -v cosign > /dev/null; then
    echo "conform: cosign is not on PATH, so the signature of the release $ref cannot be checked: not installed" >&2
    exit 1
  fi
  if [[ -n ${RELEASE_KEY:-} ]]; then
    signer=(--key "$RELEASE_KEY" --insecure-ignore-tlog=true)
  else
    signer=(--certificate-identity "https://github.com/${ACTION_REPO:?ACTION_REPO is not set}/.github/workflows/release.yml@refs/tags/$ref"
      --certificate-oidc-issuer https://token.actions.githubusercontent.com)
  fi
  if ! cosign verify-blob "${signer[@]}" --bundle "$tmp/checksums.txt.sigstore.json" "$tmp/checksums.txt" >&2; then
    echo "conform: the checksums.txt of the release $ref is not signed by ${RELEASE_KEY:-the release workflow of ${ACTION_REPO}}: not installed" >&2
    exit 1
  fi
  want=$(awk -v n="$name" '$2 == n { print $1 }' "$tmp/checksums.txt")
  got=$(sha256 "$tmp/$name" | cut -d' ' -f1)
  if [[ -z $want || $want != "$got" ]]; then
    echo "conform: $name does not match checksums.txt (sha256 $got, listed: ${want:-none}): not installed" >&2
    exit 1
  fi
  mkdir -p "$bin_dir"
  if [[ $ext == zip ]]; then unzip -q -o "$tmp/$name" "$exe" -d "$bin_dir"; else tar -xzf "$tmp/$name" -C "$bin_dir" "$exe"; fi
  output "source=release"
  on_path
  ;;
key)
  if [[ $ref =~ ^[0-9a-f]{40}$ ]]; then
    output "key=$ref"
  else
    digest=$(cd "${ACTION_PATH:?ACTION_PATH is not set}" && find . -path ./.git -prune -o -type f \( -name '*.go' -o -name 'go.mod' -o -name 'go.sum' -o -name '*.json' -o -name '*.md' -o -name '*.feature' -o -name '*.txt' -o -name '*.tmpl' \) -print | LC_ALL=C sort | while read -r f; do sha256 "$f"; done | sha256 | cut -d' ' -f1)
    output "key=src-$digest"
  fi
  ;;
build)
  recorded=""
  [[ -f $bin_dir/$exe.sha256 ]] && recorded=$(cat "$bin_dir/$exe.sha256")
  if [[ -x $bin_dir/$exe && -n $recorded && $(sha256 "$bin_dir/$exe" | cut -d' ' -f1) == "$recorded" ]]; then
    echo "conform: restored from the cache" >&2
  else
    if [[ -e $bin_dir/$exe ]]; then
      echo "conform: the binary restored from the cache does not match the digest recorded when it was built: building it again" >&2
      rm -f "$bin_dir/$exe" "$bin_dir/$exe.sha256"
    fi
    version=${ref:-unknown}
    revision=""
    [[ $ref =~ ^[0-9a-f]{40}$ ]] && revision=$ref && version="action@${ref:0:12}"
    mkdir -p "$bin_dir"
    (cd "${ACTION_PATH:?ACTION_PATH is not set}" && go build -trimpath -o "$bin_dir/$exe" \
      -ldflags "-X github.com/conform-suite/conform/runner.StampedVersion=$version -X github.com/conform-suite/conform/runner.StampedRevision=$revision" \
      ./cmd/conform)
    sha256 "$bin_dir/$exe" | cut -d' ' -f1 > "$bin_dir/$exe.sha256"
  fi
  output "source=build"
  on_path
  ;;
*)
  echo "usage: install.sh release|key|build" >&2
  exit 2
  ;;
esac
