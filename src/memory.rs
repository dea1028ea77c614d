//! How much memory this process may still take, so that a table the user
//! sizes is refused with a message instead of aborting the process (a
//! cluster job's address-space limit) or getting it killed later (a
//! container's memory limit, an overcommitted machine).
//!
//! The ceiling is the least of: the address-space limit (`ulimit -v`)
//! minus what the process has mapped, the cgroup's memory limit minus its
//! usage (v2 `memory.max`, v1 `memory.limit_in_bytes`), and the machine's
//! available memory (`MemAvailable`). Where none can be read (not Linux),
//! there is no ceiling and only the allocation itself can fail.

const MIB: u64 = 1 << 20;

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// The first number in `text` after `key`, times `unit`.
fn field(text: &str, key: &str, unit: u64) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    let n = line[key.len()..]
        .split_whitespace()
        .next()?
        .parse::<u64>()
        .ok()?;
    Some(n.saturating_mul(unit))
}

/// Bytes left under the address-space limit, if one is set.
fn address_space_left() -> Option<u64> {
    let limits = read("/proc/self/limits")?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    let limit: u64 = soft.parse().ok()?;
    let mapped = read("/proc/self/status").and_then(|s| field(&s, "VmSize:", 1024))?;
    Some(limit.saturating_sub(mapped))
}

/// Bytes left under the cgroup's memory limit, if one is set.
fn cgroup_left() -> Option<u64> {
    let v2 = read("/sys/fs/cgroup/memory.max").and_then(|max| {
        let max: u64 = max.trim().parse().ok()?;
        let used: u64 = read("/sys/fs/cgroup/memory.current")?.trim().parse().ok()?;
        Some(max.saturating_sub(used))
    });
    v2.or_else(|| {
        let max: u64 = read("/sys/fs/cgroup/memory/memory.limit_in_bytes")?
            .trim()
            .parse()
            .ok()?;
        // v1 reports "no limit" as a huge number.
        if max >= 1 << 60 {
            return None;
        }
        let used: u64 = read("/sys/fs/cgroup/memory/memory.usage_in_bytes")?
            .trim()
            .parse()
            .ok()?;
        Some(max.saturating_sub(used))
    })
}

/// The memory this process may still take, in MiB; `None` when nothing
/// tells.
pub fn available_mib() -> Option<u64> {
    let machine = read("/proc/meminfo").and_then(|m| field(&m, "MemAvailable:", 1024));
    [address_space_left(), cgroup_left(), machine]
        .into_iter()
        .flatten()
        .min()
        .map(|b| b / MIB)
}

/// Refuses a table of `mib` MiB (`what` names it) when it does not fit in
/// what the process may still take, keeping an eighth of that free for
/// everything else.
pub fn check_table(mib: usize, what: &str) -> Result<(), String> {
    match available_mib() {
        Some(avail) if mib as u64 > avail - avail / 8 => Err(format!(
            "cannot allocate {mib} MiB for the {what}: {} MiB at most are available to this process",
            avail - avail / 8
        )),
        _ => Ok(()),
    }
}

/// A vector of `n` copies of `make()`, or a message when the memory
/// cannot be had.
pub fn try_vec<T>(n: usize, make: impl Fn() -> T, what: &str) -> Result<Vec<T>, String> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        format!(
            "cannot allocate {} MiB for the {what}",
            (n as u64 * std::mem::size_of::<T>() as u64).div_ceil(MIB)
        )
    })?;
    v.extend((0..n).map(|_| make()));
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_larger_than_the_machine_is_refused() {
        if let Some(avail) = available_mib() {
            let err = check_table(avail as usize + 1, "transposition table").unwrap_err();
            assert!(err.contains("cannot allocate"), "{err}");
            assert!(check_table(1, "transposition table").is_ok());
        }
    }

    #[test]
    fn an_impossible_vector_is_an_error() {
        let r = try_vec(usize::MAX / 16, || 0u64, "test table");
        assert!(r.unwrap_err().contains("cannot allocate"));
    }
}
