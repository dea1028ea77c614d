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

/// Types whose all-zero bytes are a valid value (the empty entry of a
/// table), so that [`try_zeroed_vec`] can take them from the allocator's
/// zeroed pages.
///
/// # Safety
/// Every field must be an integer (plain or atomic) or an array of such;
/// no references, no niches, no `bool`s or enums.
pub unsafe trait Zeroed: Sized {}

/// A vector of `n` all-zero values, or a message when the memory cannot be
/// had. The memory comes zeroed from the allocator, which for a large table
/// means pages the system maps only when first written: a table costs
/// resident memory as it fills, and a new engine starts at once.
pub fn try_zeroed_vec<T: Zeroed>(n: usize, what: &str) -> Result<Vec<T>, String> {
    let refuse = || {
        format!(
            "cannot allocate {} MiB for the {what}",
            (n as u64)
                .saturating_mul(std::mem::size_of::<T>() as u64)
                .div_ceil(MIB)
        )
    };
    if n == 0 || std::mem::size_of::<T>() == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(n).map_err(|_| refuse())?;
    // SAFETY: the layout's size is not zero (checked above); a null answer
    // is handled. The memory is zeroed, which `T: Zeroed` promises is a
    // valid `T`, and it was allocated by the global allocator with `T`'s
    // layout for `n` elements, which is what `Vec::from_raw_parts` needs.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut T;
        if p.is_null() {
            return Err(refuse());
        }
        Ok(Vec::from_raw_parts(p, n, n))
    }
}

/// Empties a table made by [`try_zeroed_vec`]: it takes fresh zeroed pages
/// and gives the old ones back to the system, so a cleared table (a new
/// game) costs no resident memory until it fills again and clearing a large
/// table that was hardly used costs almost nothing. When the fresh memory
/// cannot be had, the old table is zeroed where it is.
pub fn clear_zeroed<T: Zeroed>(v: &mut Vec<T>) {
    let n = v.len();
    match try_zeroed_vec::<T>(n, "table") {
        Ok(fresh) => *v = fresh,
        // SAFETY: `n` elements are allocated, and all-zero bytes are a
        // valid `T` (`T: Zeroed`).
        Err(_) => unsafe { std::ptr::write_bytes(v.as_mut_ptr(), 0, n) },
    }
}

// SAFETY: integers.
unsafe impl Zeroed for u64 {}
// SAFETY: atomic integers, whose zero bytes are the value 0.
unsafe impl Zeroed for [std::sync::atomic::AtomicU64; 2] {}

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
        let r = try_zeroed_vec::<u64>(usize::MAX / 16, "test table");
        assert!(r.unwrap_err().contains("cannot allocate"));
    }

    #[test]
    fn a_zeroed_vector_is_zero_and_usable() {
        let mut v = try_zeroed_vec::<u64>(1 << 16, "test table").unwrap();
        assert_eq!(v.len(), 1 << 16);
        assert!(v.iter().all(|&x| x == 0));
        v[12345] = 7;
        v.push(1);
        assert_eq!(v.iter().sum::<u64>(), 8);
        clear_zeroed(&mut v);
        assert_eq!(v.len(), (1 << 16) + 1);
        assert!(v.iter().all(|&x| x == 0));
    }
}
