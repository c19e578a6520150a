//! The ELF interpreter a program names (`PT_INTERP`): the kernel opens it for execution too,
//! so a sandbox that lets one program run must let its loader run.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

const PT_INTERP: u32 = 3;

/// The interpreter of a 64-bit little-endian ELF program; `None` for anything else (a script,
/// a static binary, another format).
pub fn interpreter(program: &Path) -> Option<PathBuf> {
    let mut file = std::fs::File::open(program).ok()?;
    let mut header = [0u8; 64];
    file.read_exact(&mut header).ok()?;
    // Magic, 64-bit class, little-endian.
    if header[..4] != *b"\x7fELF" || header[4] != 2 || header[5] != 1 {
        return None;
    }
    let program_headers = u64::from_le_bytes(header[0x20..0x28].try_into().ok()?);
    let entry_size = u16::from_le_bytes(header[0x36..0x38].try_into().ok()?) as u64;
    let entries = u16::from_le_bytes(header[0x38..0x3a].try_into().ok()?) as u64;
    for i in 0..entries.min(64) {
        let mut entry = [0u8; 56];
        file.seek(SeekFrom::Start(program_headers + i * entry_size)).ok()?;
        file.read_exact(&mut entry).ok()?;
        if u32::from_le_bytes(entry[0..4].try_into().ok()?) != PT_INTERP {
            continue;
        }
        let offset = u64::from_le_bytes(entry[8..16].try_into().ok()?);
        let size = u64::from_le_bytes(entry[32..40].try_into().ok()?).min(4096) as usize;
        let mut name = vec![0u8; size];
        file.seek(SeekFrom::Start(offset)).ok()?;
        file.read_exact(&mut name).ok()?;
        let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
        let text = std::str::from_utf8(&name[..end]).ok()?;
        return (!text.is_empty()).then(|| PathBuf::from(text));
    }
    None
}

#[cfg(all(test, target_os = "linux", target_pointer_width = "64", target_endian = "little"))]
mod tests {
    use super::*;

    #[test]
    fn a_dynamic_program_names_its_loader_and_a_script_names_none() {
        let loader = interpreter(Path::new("/bin/ls")).expect("ls is a dynamic ELF program");
        assert!(loader.to_string_lossy().contains("ld-"), "{}", loader.display());
        assert!(loader.is_file());
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("run.sh");
        std::fs::write(&script, "#!/bin/sh\necho hi\n").unwrap();
        assert_eq!(interpreter(&script), None);
    }
}
