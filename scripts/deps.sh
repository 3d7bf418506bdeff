#!/bin/sh
# Install the Debian 12 packages histmac needs, only those that are missing.
# usage: scripts/deps.sh build|test|vm|bench|services...
# One list per purpose; `make demo` asks for build, `make test` for test.
set -eu

build="build-essential cmake pkg-config libaudit-dev libauparse-dev
	libxml2-dev libxml2-utils libgraphviz-dev graphviz libpcre2-dev
	libcmocka-dev libsystemd-dev"
# vm: the kernel oracle (tests/vm): QEMU and a static busybox for its
# initramfs; the kernel package itself is fetched by tests/vm/lib.sh into
# a cache (apt-get download), never installed.
vm="qemu-system-x86 busybox-static"
test="$build $vm auditd tomoyo-tools clang libclang-rt-14-dev valgrind
	chromium curl apache2 iproute2 procps psmisc jq nodejs time
	systemd debhelper dpkg-dev fakeroot lintian man-db git perl python3
	cron openssh-server openssh-client postfix bsd-mailx libcap2-bin
	nginx fcgiwrap spawn-fcgi logrotate libfaketime python3-prometheus-client"
bench="$test hyperfine laurel fapolicyd time strace"
# test includes the services of tests/e2e/t_service_*.sh and t_vm_production
# (sshd, postfix, cron with logrotate, nginx with fcgiwrap), started by their
# init scripts (cron on libfaketime's fast clock); services is kept as
# another name for it.
services="$test"

want=""
for set in "$@"; do
	case "$set" in
	build) want="$want $build" ;;
	test) want="$want $test" ;;
	vm) want="$want $vm" ;;
	bench) want="$want $bench" ;;
	services) want="$want $services" ;;
	*) echo "deps.sh: unknown set '$set' (build, test, vm, bench, services)" >&2; exit 2 ;;
	esac
done

missing=""
for p in $want; do
	# dpkg-query prints "install ok installed" only for a fully installed one
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing packages:$missing (run as root to install)" >&2
	exit 3
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# policy-rc.d keeps daemons in these packages (auditd, apache2, fapolicyd)
# from being started by the install; tests start what they need.
prc=/usr/sbin/policy-rc.d
made_prc=""
if [ ! -e "$prc" ]; then
	printf '#!/bin/sh\nexit 101\n' > "$prc" && chmod 755 "$prc" && made_prc=1
fi
trap '[ -n "$made_prc" ] && rm -f "$prc"' EXIT
apt-get update -qq || true
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
