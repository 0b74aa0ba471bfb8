#!/usr/bin/env bash
# The student's first hour without root (issue 47): ./setup --student run by a plain user with no
# sudo, on this machine made to lack what setup installs. In a bubblewrap view of the machine,
# Debian's status file lists none of PACKAGES and their headers, CMake files, programs and
# libraries' links are hidden; the course is a copy the user owns. setup must fetch them into the
# copy's .deps/, build hpclab with them, and that hpclab must run. Needs bubblewrap, a Debian
# package mirror, and (run as root, as CI is) a plain user to run as (HPCLAB_PLAIN_USER, made if
# missing). CI runs it (.ci/run); it takes the few minutes hpclab's build takes.
#   scripts/setup-without-root.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PACKAGES=${PACKAGES:-"doctest-dev libfmt-dev nlohmann-json3-dev libcli11-dev ninja-build"}
command -v bwrap >/dev/null || { echo "setup-without-root: no bubblewrap here" >&2; exit 77; }
view=$(mktemp -d); trap 'rm -rf "$view"' EXIT
chmod 755 "$view"
# What the view hides: the packages' lines in dpkg's status, and their files that make them found.
awk -v RS= -v ORS='\n\n' -v drop=" $PACKAGES " '{ split($0, l, "\n"); sub(/^Package: /, "", l[1]) }
     index(drop, " " l[1] " ") == 0' /var/lib/dpkg/status > "$view/status"
: > "$view/absent"  # a hidden file's stand-in: empty, no one may run it
hide=(--ro-bind "$view/status" /var/lib/dpkg/status)
declare -A hidden_dirs=()
for pkg in $PACKAGES; do
  dpkg -s "$pkg" >/dev/null 2>&1 || continue  # not here: missing already
  while IFS= read -r f; do
    if [[ $f =~ ^(/usr/include/[^/]+)/ || $f =~ ^(/usr/(lib/[^/]+|lib|share)/cmake/[^/]+)/ ]]; then
      hidden_dirs[${BASH_REMATCH[1]}]=1
    elif [[ $f =~ ^/usr/bin/ || $f =~ \.so$ || $f =~ \.pc$ || $f =~ ^/usr/include/[^/]+$ ]] && [ ! -d "$f" ]; then
      hide+=(--ro-bind "$view/absent" "$f")
    fi
  done < <(dpkg -L "$pkg")
done
for d in "${!hidden_dirs[@]}"; do hide+=(--tmpfs "$d"); done
# The course, the user's own copy (no build, no .deps).
copy="$view/course"
mkdir "$copy" && tar -c --exclude=./build --exclude=./.deps --exclude=./.carry --exclude=./.git . | tar -x -C "$copy"
run=(bwrap --dev-bind / / "${hide[@]}" --unshare-user --chdir "$copy" --)
if [ "$(id -u)" -eq 0 ]; then
  user=${HPCLAB_PLAIN_USER:-hpclab-student}
  id "$user" >/dev/null 2>&1 || useradd --create-home "$user"
  chown -R "$user" "$view"
  as_user() { su -s /bin/bash "$user" -c "$(printf '%q ' "$@")"; }
else
  as_user() { "$@"; }  # bwrap's no_new_privs: no sudo inside
fi
echo "setup-without-root: ./setup --student as $(as_user id -un), without: $PACKAGES"
as_user "${run[@]}" ./setup --student || { echo "setup-without-root: FAILED: ./setup --student exited $?" >&2; exit 1; }
[ -f "$copy/.deps/root/usr/include/doctest/doctest.h" ] \
  || { echo "setup-without-root: FAILED: nothing was fetched into .deps/ (were the packages hidden?)" >&2; exit 1; }
out=$(as_user "${run[@]}" ./hpclab list) || { echo "setup-without-root: FAILED: hpclab list" >&2; exit 1; }
grep -q "hello" <<< "$out" || { echo "setup-without-root: FAILED: hpclab list printed no labs" >&2; exit 1; }
echo "setup-without-root: passed: $(ls "$copy/.deps/debs" | wc -l) packages fetched into .deps/, hpclab built and runs"
