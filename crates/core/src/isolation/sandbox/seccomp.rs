//! The worker's seccomp filter. Landlock decides which files can be opened; this refuses the
//! calls Landlock does not see: making sockets of any family (the worker talks only over the
//! descriptors it inherited), changing a file's mode, owner, attributes or times by path or
//! handle, truncating, the kernel keyring, tracing or signalling other processes, and
//! io_uring. Refused calls fail with EACCES (EPERM for signals) so parsers see an ordinary
//! error; a call from another ABI (x32, i386 on x86_64) kills the process, since its numbers
//! would bypass every rule.

use std::io;

use libc::{sock_filter, sock_fprog};

#[cfg(target_arch = "x86_64")]
const ARCH: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
#[cfg(target_arch = "aarch64")]
const ARCH: u32 = 0xC000_00B7; // AUDIT_ARCH_AARCH64

/// x32 calls share the architecture tag of x86_64 and set this bit in the number.
#[cfg(target_arch = "x86_64")]
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

const LD_W_ABS: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
const JEQ_K: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
#[cfg(target_arch = "x86_64")]
const JGE_K: u16 = (libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K) as u16;
const RET_K: u16 = (libc::BPF_RET | libc::BPF_K) as u16;
// Offsets in struct seccomp_data: nr, arch, then args (the low half of args[0] at 16).
const NR: u32 = 0;
const ARCH_AT: u32 = 4;
const ARG0: u32 = 16;

// Newer than some libc releases; the numbers are shared by every architecture.
const SYS_FCHMODAT2: libc::c_long = 452;
const SYS_SETXATTRAT: libc::c_long = 463;
const SYS_REMOVEXATTRAT: libc::c_long = 466;

/// Calls refused with EACCES.
fn refused() -> Vec<libc::c_long> {
    let mut calls = vec![
        libc::SYS_socket,
        libc::SYS_fchmod,
        libc::SYS_fchmodat,
        SYS_FCHMODAT2,
        libc::SYS_fchown,
        libc::SYS_fchownat,
        libc::SYS_setxattr,
        libc::SYS_lsetxattr,
        libc::SYS_fsetxattr,
        libc::SYS_removexattr,
        libc::SYS_lremovexattr,
        libc::SYS_fremovexattr,
        SYS_SETXATTRAT,
        SYS_REMOVEXATTRAT,
        libc::SYS_utimensat,
        libc::SYS_truncate,
        libc::SYS_ftruncate,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
    ];
    #[cfg(target_arch = "x86_64")]
    calls.extend([libc::SYS_chmod, libc::SYS_chown, libc::SYS_lchown, libc::SYS_utime, libc::SYS_utimes, libc::SYS_futimesat]);
    calls
}

/// Calls whose first argument names the process they reach: allowed only for this one.
fn signals() -> [libc::c_long; 5] {
    [libc::SYS_kill, libc::SYS_tkill, libc::SYS_tgkill, libc::SYS_rt_sigqueueinfo, libc::SYS_rt_tgsigqueueinfo]
}

fn op(code: u16, jt: u8, jf: u8, k: u32) -> sock_filter {
    sock_filter { code, jt, jf, k }
}

/// The filter for a process whose id is `pid`.
fn program(pid: u32) -> Vec<sock_filter> {
    let eacces = libc::SECCOMP_RET_ERRNO | libc::EACCES as u32;
    let eperm = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
    let mut filter = vec![
        op(LD_W_ABS, 0, 0, ARCH_AT),
        op(JEQ_K, 1, 0, ARCH),
        op(RET_K, 0, 0, libc::SECCOMP_RET_KILL_PROCESS),
        op(LD_W_ABS, 0, 0, NR),
    ];
    #[cfg(target_arch = "x86_64")]
    filter.extend([op(JGE_K, 0, 1, X32_SYSCALL_BIT), op(RET_K, 0, 0, libc::SECCOMP_RET_KILL_PROCESS)]);
    for call in refused() {
        filter.extend([op(JEQ_K, 0, 1, call as u32), op(RET_K, 0, 0, eacces)]);
    }
    // Signals come last: reading the argument replaces the call number in the accumulator.
    for call in signals() {
        filter.extend([
            op(JEQ_K, 0, 4, call as u32),
            op(LD_W_ABS, 0, 0, ARG0),
            op(JEQ_K, 1, 0, pid),
            op(RET_K, 0, 0, eperm),
            op(RET_K, 0, 0, libc::SECCOMP_RET_ALLOW),
        ]);
    }
    filter.push(op(RET_K, 0, 0, libc::SECCOMP_RET_ALLOW));
    filter
}

pub fn apply() -> io::Result<()> {
    let filter = program(std::process::id());
    let len = u16::try_from(filter.len()).map_err(|_| io::Error::other("seccomp filter too long"))?;
    let program = sock_fprog { len, filter: filter.as_ptr().cast_mut() };
    // SAFETY: the program outlives the call, which copies it into the kernel.
    let done = unsafe { libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, &program as *const sock_fprog, 0, 0) };
    if done != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_jump_lands_inside_the_program_and_it_ends_by_allowing() {
        let filter = program(1234);
        assert!(filter.len() < 4096, "the kernel's limit");
        for (i, f) in filter.iter().enumerate() {
            if f.code & 0x07 == libc::BPF_JMP as u16 {
                assert!(i + 1 + (f.jt.max(f.jf) as usize) < filter.len(), "jump at {i} leaves the program");
            }
        }
        let last = filter.last().unwrap();
        assert_eq!((last.code, last.k), (RET_K, libc::SECCOMP_RET_ALLOW));
        assert!(filter.iter().any(|f| f.code == JEQ_K && f.k == libc::SYS_socket as u32));
        assert!(filter.iter().any(|f| f.code == JEQ_K && f.k == 1234), "signals compare the target with this process");
    }
}
