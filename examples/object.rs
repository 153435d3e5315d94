//! Relocatable objects: compiles an IR example with stack maps for x86-64 and AArch64, links the
//! x86-64 one with the system's `cc` and runs it, and prints the stack map as llvm-readobj would.
//!
//! Run with `cargo run --example object [FILE.ll]` (default: `ir-examples/sm_loop.ll`).

use std::path::PathBuf;
use std::process::Command;

use patchmap::compile::Options;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let input = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ir-examples/sm_loop.ll"));
    let module = patchmap::ir::parse_file(&input)?;
    let dir = std::env::temp_dir().join(format!("patchmap-object-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    for target in ["x86_64", "aarch64"] {
        let object = patchmap::emit::object::compile(&module, &Options::new(Some(target), "speed", 3)?)
            .map_err(|e| e.to_string())?;
        let path = dir.join(format!("program.{target}.o"));
        std::fs::write(&path, &object)?;
        println!("{target}: {} ({} bytes)", path.display(), object.len());
    }
    let object = dir.join("program.x86_64.o");
    let exe = dir.join("program");
    if std::env::consts::ARCH == "x86_64" {
        // The section's absolute function addresses would be text relocations in a PIE.
        let linked = Command::new("cc").arg(&object).arg("-no-pie").arg("-o").arg(&exe).arg("-lm").status();
        match linked {
            Ok(status) if status.success() => {
                let run = Command::new(&exe).output()?;
                println!("linked with cc and ran it: exit status {:?}, output:", run.status.code());
                print!("{}", String::from_utf8_lossy(&run.stdout));
            }
            _ => println!("cc is not available: not linking"),
        }
    }
    println!("\nthe x86-64 object's stack map:");
    patchmap::stackmap::object_file::dump(&std::fs::read(&object)?, true, &mut std::io::stdout().lock())?;
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
