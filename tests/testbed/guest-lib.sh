# shellcheck shell=bash
# SPDX-License-Identifier: BSD-2-Clause
# guest-lib.sh - what every QEMU guest of the test bed needs, sourced by
# tests/testbed/testbed (one guest) and tests/fabric/fabric (several):
# the packages, the kernel that ships rdma_rxe, and the initramfs.
# The sourcing script defines die, say, $cache (a folder for the
# initramfs) and $install (1: apt-get install what lacks).

guest_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# guest_clock_args: the kernel parameters of every guest's clock.  The TSC
# is its clocksource (a vDSO read, not an exit to an emulated HPET: timing
# in the guest costs what it costs on a host), trusted (no watchdog: under
# TCG the watchdog's reads are late and it would call a good TSC unstable),
# and its rate is told (tsc_early_khz, measured here by build/tests/tsc-khz:
# the guest reads the host's TSC), not calibrated: a guest starved while it
# calibrates at boot can take its TSC for a fraction of its rate, and its
# clock then runs that many times fast for its whole life.  CI-Q's rdma
# guest counted 13,846 s in a 2,362 s suite, and 12 of its tests failed on
# timeouts that ended too soon.  Without the tool, or where it cannot
# measure, that is an error, status 1 (CI-R's rdma guest calibrated its own,
# silently, because the ASan build dir had no tsc-khz); with
# RDMAD_TESTBED_CALIBRATE=1 the guest calibrates instead, and the caller
# is told.
guest_clock_args() {
	local tool=$RDMAD_BUILD_DIR/tests/tsc-khz khz= why=
	if [ ! -x "$tool" ]; then
		why="no $tool (build it: ninja -C $RDMAD_BUILD_DIR tests/tsc-khz)"
	elif ! khz=$("$tool"); then
		why="the host's TSC rate is unknown"
		khz=
	fi
	if [ -n "$why" ]; then
		if [ "${RDMAD_TESTBED_CALIBRATE:-}" != 1 ]; then
			say "$why: a guest that calibrates its own TSC under load can keep a clock several times fast (docs/testbed.md); RDMAD_TESTBED_CALIBRATE=1 lets it"
			return 1
		fi
		say "$why: guests calibrate their TSC at boot (RDMAD_TESTBED_CALIBRATE=1)"
	fi
	echo "clocksource=tsc tsc=reliable${khz:+ tsc_early_khz=$khz}"
}

need_pkgs=()
check_tool() { command -v "$1" >/dev/null 2>&1 || need_pkgs+=("$2"); }

pick_kernel() {
	local k v
	for k in $(ls -1 /boot/vmlinuz-* 2>/dev/null | sort -rV); do
		v=${k#/boot/vmlinuz-}
		if [ -r "$k" ] && ls /lib/modules/"$v"/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko* >/dev/null 2>&1; then
			echo "$v"
			return 0
		fi
	done
	return 1
}

# ensure_guest_tools [TOOL:PACKAGE]...: also the tools a caller needs
# (the fabric's tcpdump).
ensure_guest_tools() {
	local extra
	need_pkgs=()
	for extra in "$@"; do check_tool "${extra%%:*}" "${extra#*:}"; done
	check_tool qemu-system-x86_64 qemu-system-x86
	check_tool cpio cpio
	[ -x /bin/busybox ] && /bin/busybox --list 2>/dev/null | grep -qx switch_root ||
		need_pkgs+=(busybox-static)
	check_tool rdma iproute2
	check_tool rping rdmacm-utils
	check_tool ibv_devices ibverbs-utils
	check_tool ib_write_bw perftest
	check_tool modprobe kmod
	[ -e /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so ] ||
		ls /usr/lib/*/libibverbs/librxe-rdmav*.so >/dev/null 2>&1 ||
		need_pkgs+=(ibverbs-providers)
	pick_kernel >/dev/null || need_pkgs+=(linux-image-amd64)
	[ ${#need_pkgs[@]} -eq 0 ] && return 0
	if [ "$install" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		say "installing ${need_pkgs[*]}"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			"${need_pkgs[@]}" >"$cache/apt.log" 2>&1 || {
			tail -20 "$cache/apt.log" >&2
			die "apt-get install ${need_pkgs[*]} failed (log above)"
		}
		need_pkgs=()
		pick_kernel >/dev/null || die "installed linux-image-amd64 but found no kernel with rdma_rxe under /boot"
		return 0
	fi
	die "no RDMA on this host and the guest test bed lacks: ${need_pkgs[*]} (as root on Debian/Ubuntu: apt-get install ${need_pkgs[*]})"
}

# The initramfs: busybox, the modules that reach the host's root over 9p,
# and /init (tests/testbed/initramfs-init).  Rebuilt when its inputs change.
# Guests of several suites may start at once (CI runs the fabric beside
# the testbed and systemd suites): one builds, under a lock, the others
# wait and take its file; the new file replaces the old in one rename.
build_initramfs() {
	local kver=$1 out=$cache/initramfs-$kver.cpio.gz stamp dir m lock
	stamp=$(cat "$guest_lib_dir/initramfs-init" /bin/busybox | md5sum | cut -c1-16)
	exec {lock}>"$out.lock"
	flock "$lock" || die "cannot lock $out.lock"
	if [ -f "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$stamp" ]; then
		exec {lock}>&-
		echo "$out"
		return 0
	fi
	dir=$(mktemp -d "$cache/initramfs.XXXXXX")
	mkdir -p "$dir"/{bin,dev,proc,sys,newroot,lower,upper,mods}
	cp /bin/busybox "$dir/bin/busybox"
	ln -s busybox "$dir/bin/sh"
	cp "$guest_lib_dir/initramfs-init" "$dir/init"
	chmod 755 "$dir/init"
	: >"$dir/mods/order"
	for m in virtio_pci 9pnet_virtio 9p overlay; do
		modprobe -S "$kver" --show-depends "$m" 2>/dev/null |
			awk '$1 == "insmod" { print $2 }'
	done | awk '!seen[$0]++' | while read -r m; do
		cp "$m" "$dir/mods/" && basename "$m" >>"$dir/mods/order"
	done
	[ -s "$dir/mods/order" ] || die "modprobe -S $kver found no 9p/virtio modules"
	(cd "$dir" && find . | cpio -o -H newc --quiet | gzip -1) >"$dir.cpio.gz" ||
		die "could not build the initramfs"
	mv "$dir.cpio.gz" "$out"
	echo "$stamp" >"$out.stamp"
	rm -rf "$dir"
	exec {lock}>&-
	echo "$out"
}

