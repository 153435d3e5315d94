//! A stack map's shadow patched with a call to an exit stub of `runtime::exits`, on both targets:
//! the library's routine, activation and group bytes (its own assembly text) linked with a C driver
//! (`tests/exit_stub/driver.c`) and a patchmap-compiled kernel, whose shadow the driver patches with
//! `Arch::encode_exit_call`'s bytes for stub 37 (the second group) at some iteration. The handler
//! must get number 37 and the return address where `Arch::exit_call_return_offset` says; every
//! location of the record must read the value the kernel had at that iteration from the saved
//! registers and the stack; and leaving must return the handler's value from the activation (on
//! AArch64 under qemu-aarch64).

use crate::support;

use std::path::Path;
use std::process::Command;

use patchmap::compile::Options;
use patchmap::stackmap::{object_file, LocationKind};
use support::Arch;

const KERNEL: &str = "declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @safepoint(i64)

define i64 @kernel(i64 %n, i64 %seed) {
entry:
  %cell = alloca i64, align 8
  store i64 %seed, ptr %cell
  %b0 = shl i64 %seed, 1
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %a = phi i64 [ %seed, %entry ], [ %a1, %loop ]
  %b = phi i64 [ %b0, %entry ], [ %b1, %loop ]
  %c = phi i64 [ 9, %entry ], [ %c1, %loop ]
  %d = phi double [ 5.0e-1, %entry ], [ %d1, %loop ]
  %s = phi i32 [ 1, %entry ], [ %s1, %loop ]
  call void @safepoint(i64 %i)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 7, i32 16, i64 %i, i64 %a, i64 %b, i64 %c, double %d, i32 %s, i64 %n, ptr %cell)
  %a3 = mul i64 %a, 3
  %a1 = add i64 %a3, %i
  %a1s = shl i64 %a1, 1
  %b1 = xor i64 %b, %a1s
  %c1 = add i64 %c, %b1
  %d1 = fadd double %d, 1.25
  %s5 = mul i32 %s, 5
  %s1 = add i32 %s5, 1
  store i64 %a1, ptr %cell
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  %r = add i64 %a1, %c1
  ret i64 %r
}
";

/// The kernel's live values at iteration `k` (n = 100, seed = 5), in stack map order as the driver
/// prints them (the cell as its contents), and its result.
fn kernel_state(k: u64) -> (Vec<u64>, u64) {
    let (n, seed) = (100u64, 5u64);
    let (mut a, mut b, mut c, mut d, mut s) = (seed, seed << 1, 9u64, 0.5f64, 1u32);
    let mut cell = seed;
    let mut state = Vec::new();
    for i in 0..n {
        if i == k {
            state = vec![i, a, b, c, d.to_bits(), u64::from(s), n, cell];
        }
        a = a.wrapping_mul(3).wrapping_add(i);
        b ^= a << 1;
        c = c.wrapping_add(b);
        d += 1.25;
        s = s.wrapping_mul(5).wrapping_add(1);
        cell = a;
    }
    (state, a.wrapping_add(c))
}

#[test]
fn the_exit_stub_reads_every_live_value_and_resumes_on_both_targets() {
    let dir = tempfile::tempdir().unwrap();
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/exit_stub/driver.c");
    let module = patchmap::ir::parse("kernel.ll", KERNEL).unwrap();
    for arch in Arch::ALL {
        let Some(toolchain) = support::toolchain(arch) else { continue };
        let name = if arch == Arch::X86_64 { "x86_64" } else { "aarch64" };

        let object = patchmap::emit::object::compile(&module, &Options::new(Some(name), "speed", 3).unwrap()).unwrap();
        let (maps, _) = object_file::read_models(&object).unwrap();
        let record = maps.iter().flat_map(|m| &m.records).find(|r| r.id == 7).expect("record 7");
        let locations: Vec<String> = record
            .locations
            .iter()
            .map(|l| match l.kind {
                LocationKind::Register => format!("R:{}:{}", l.dwarf_reg, l.size),
                LocationKind::Direct => format!("D:{}:{}", l.dwarf_reg, l.offset),
                LocationKind::Indirect => format!("I:{}:{}:{}", l.dwarf_reg, l.offset, l.size),
                other => panic!("the kernel's values are not constants: {other:?}"),
            })
            .collect();
        assert!(locations.iter().any(|l| l.starts_with("D:")), "the cell is a Direct location");

        let kernel = dir.path().join(format!("kernel.{name}.o"));
        let stub = dir.path().join(format!("stub.{name}.s"));
        let exe = dir.path().join(format!("exit_stub.{name}"));
        std::fs::write(&kernel, &object).unwrap();
        std::fs::write(&stub, crate::exits::library_assembly(arch, 2)).unwrap();
        let mut link = Command::new(&toolchain.linker);
        link.arg(&driver).arg(&stub).arg(&kernel).arg("-o").arg(&exe);
        // Fixed addresses: the test encodes the exit call to the linked stub 37.
        link.arg(if arch == Arch::Aarch64 { "-static" } else { "-no-pie" });
        let linked = link.output().unwrap();
        assert!(linked.status.success(), "{name}: {}", String::from_utf8_lossy(&linked.stderr));
        let stub = {
            use object::{Object, ObjectSymbol};
            let bytes = std::fs::read(&exe).unwrap();
            let file = object::File::parse(&*bytes).unwrap();
            let groups = file.symbols().find(|s| s.name() == Ok("exit_groups")).expect("exit_groups").address();
            groups + arch.exit_group_size() as u64 + 5 * arch.exit_stub_size() as u64
        };
        let exit_call: String = arch.encode_exit_call(stub).unwrap().iter().map(|b| format!("{b:02x}")).collect();

        for exit_at in [-1i64, 0, 1, 57, 99] {
            let mut run = toolchain.command(&exe);
            run.env("PATCHMAP_POINT", record.instruction_offset.to_string())
                .env("PATCHMAP_EXIT_AT", exit_at.to_string())
                .env("PATCHMAP_EXIT_CALL", &exit_call)
                .env("PATCHMAP_LOCATIONS", locations.join(","));
            let (status, stdout) = support::run_with_deadline(&mut run, std::time::Duration::from_secs(20)).unwrap();
            assert_eq!(status, Some(0), "{name}, exit at {exit_at}: {stdout}");
            let mut expected = String::new();
            if exit_at < 0 {
                expected.push_str(&format!("result {}\n", kernel_state(0).1));
            } else {
                let (values, _) = kernel_state(exit_at as u64);
                expected
                    .push_str(&format!("number 37\nreturn-offset {}\nsp-in-frame 1\n", arch.exit_call_return_offset()));
                let cell_address = stdout.lines().find(|l| l.contains('*')).and_then(|l| l.split(' ').nth(1));
                for (value, location) in values.iter().zip(&locations) {
                    if location.starts_with("D:") {
                        expected.push_str(&format!("value {} *{value:x}\n", cell_address.unwrap_or("?")));
                    } else {
                        expected.push_str(&format!("value {value:x}\n"));
                    }
                }
                expected.push_str("result 4242\n");
            }
            assert_eq!(stdout, expected, "{name}, exit at iteration {exit_at}, locations {locations:?}");
        }
    }
}
