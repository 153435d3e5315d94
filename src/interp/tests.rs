//! The semantics that are easy to get wrong: widths, i1, undefined behaviour, casts, NaN, resuming.

use super::*;

fn module(text: &str) -> Module {
    let m = crate::ir::parse("t.ll", text).unwrap_or_else(|e| panic!("{e}"));
    crate::ir::verify(&m).unwrap_or_else(|e| panic!("{e}"));
    m
}

fn call(m: &Module, name: &str, args: &[u64]) -> Result<Option<u64>, InterpError> {
    let mut interp = Interpreter::new(m);
    // SAFETY: the test programs only touch their own allocas and globals.
    unsafe { interp.call(m.function_by_name(name).unwrap(), args) }
}

/// `define <ty> @f(<ty> %a, <ty> %b) { %r = <op> <ty> %a, %b  ret <ty> %r }` applied to `a` and `b`.
fn binary(op: &str, ty: &str, a: u64, b: u64) -> Result<Option<u64>, InterpError> {
    let m = module(&format!("define {ty} @f({ty} %a, {ty} %b) {{\n  %r = {op} {ty} %a, %b\n  ret {ty} %r\n}}\n"));
    call(&m, "f", &[a, b])
}

fn ok(r: Result<Option<u64>, InterpError>) -> u64 {
    r.unwrap_or_else(|e| panic!("{e}")).expect("a result")
}

#[test]
fn integers_wrap_at_their_width_and_stay_zero_extended() {
    assert_eq!(ok(binary("add", "i8", 200, 100)), 44);
    assert_eq!(ok(binary("sub", "i32", 0, 1)), 0xffff_ffff);
    assert_eq!(ok(binary("mul", "i16", 300, 300)), (300u32 * 300 % 65536) as u64);
    // Arguments are kept to their parameter's width: the high bits of 0x1_0000_0005 are dropped.
    assert_eq!(ok(binary("add", "i32", 0x1_0000_0005, 1)), 6);
    assert_eq!(ok(binary("sdiv", "i8", 0xf9, 2)), 0xfd, "-7 / 2 = -3");
    assert_eq!(ok(binary("srem", "i8", 0xf9, 2)), 0xff, "-7 % 2 = -1");
    assert_eq!(ok(binary("udiv", "i8", 0xf9, 2)), 124);
}

#[test]
fn i1_is_zero_or_one_and_signed_as_minus_one() {
    assert_eq!(ok(binary("add", "i1", 1, 1)), 0);
    assert_eq!(ok(binary("xor", "i1", 1, 0)), 1);
    let m = module(
        "define i32 @f(i1 %b) {\n  %w = sext i1 %b to i32\n  %lt = icmp slt i1 %b, 0\n  %z = zext i1 %lt to i32\n  \
         %r = add i32 %w, %z\n  ret i32 %r\n}\n",
    );
    // sext 1 = -1, and 1 as a signed i1 is -1 < 0: -1 + 1.
    assert_eq!(ok(call(&m, "f", &[1])), 0);
    assert_eq!(ok(call(&m, "f", &[0])), 0);
    let m = module("define i1 @f(i32 %x) {\n  %t = trunc i32 %x to i1\n  ret i1 %t\n}\n");
    assert_eq!(ok(call(&m, "f", &[6])), 0);
    assert_eq!(ok(call(&m, "f", &[7])), 1);
}

#[test]
fn division_by_zero_and_signed_overflow_are_positioned_errors() {
    let e = binary("sdiv", "i32", 0x8000_0000, 0xffff_ffff).unwrap_err();
    assert_eq!(e.to_string(), "t.ll:2:3: error: in @f: sdiv overflows: -2147483648 / -1 does not fit in i32");
    let e = binary("srem", "i64", i64::MIN as u64, u64::MAX).unwrap_err();
    assert!(e.message.starts_with("srem overflows"), "{e}");
    assert_eq!(binary("udiv", "i16", 5, 0).unwrap_err().message, "udiv by zero");
    assert_eq!(binary("srem", "i8", 5, 0).unwrap_err().message, "srem by zero");
    // A wider divisor whose low bits are zero is zero at the operation's width.
    assert_eq!(binary("urem", "i8", 5, 0x100).unwrap_err().message, "urem by zero");
}

#[test]
fn shift_amounts_wrap_at_the_width_as_in_cranelift() {
    assert_eq!(ok(binary("shl", "i32", 1, 33)), 2);
    assert_eq!(ok(binary("lshr", "i8", 0x80, 9)), 0x40);
    assert_eq!(ok(binary("ashr", "i8", 0x80, 1)), 0xc0);
    assert_eq!(ok(binary("ashr", "i64", 1 << 63, 63)), u64::MAX);
    assert_eq!(ok(binary("shl", "i16", 0x8001, 1)), 2);
    // An i1 is shifted in an 8-bit register: 1 << 1 loses the bit, and it is never negative.
    assert_eq!(ok(binary("shl", "i1", 1, 1)), 0);
    // An arithmetic shift fills from bit N-1: an i1 1 is -1, and stays so (LLVM: poison).
    assert_eq!(ok(binary("ashr", "i1", 1, 1)), 1);
    assert_eq!(ok(binary("shl", "i1", 1, 0)), 1);
    // An i24 lives in a 32-bit register: amounts wrap at 32, bits above 24 are dropped.
    assert_eq!(ok(binary("shl", "i24", 0x80_0001, 1)), 2);
    assert_eq!(ok(binary("shl", "i24", 1, 33)), 2);
    assert_eq!(ok(binary("ashr", "i24", 0x80_0000, 4)), 0xf8_0000);
    assert_eq!(ok(binary("lshr", "i24", 0x80_0000, 23)), 1);
    assert_eq!(ok(binary("ashr", "i40", 1 << 39, 39)), (1 << 40) - 1);
}

#[test]
fn odd_widths_wrap_and_divide_as_n_bit_numbers() {
    assert_eq!(ok(binary("add", "i24", 0xff_ffff, 1)), 0);
    assert_eq!(ok(binary("mul", "i40", 1 << 39, 2)), 0);
    // -8 / 3 = -2 in i24, kept as 24 bits.
    assert_eq!(ok(binary("sdiv", "i24", 0xff_fff8, 3)), 0xff_fffe);
    assert_eq!(ok(binary("srem", "i24", 0xff_fff8, 3)), 0xff_fffe);
    assert_eq!(ok(binary("udiv", "i24", 0xff_fff8, 3)), 0x55_5552);
    let e = binary("sdiv", "i24", 0x80_0000, 0xff_ffff).unwrap_err();
    assert!(e.message.starts_with("sdiv overflows: -8388608 / -1"), "{e}");
}

fn cast(text: &str, from: &str, to: &str, arg: u64) -> u64 {
    let m = module(&format!("define {to} @f({from} %x) {{\n  %r = {text} {from} %x to {to}\n  ret {to} %r\n}}\n"));
    ok(call(&m, "f", &[arg]))
}

#[test]
fn casts_extend_truncate_and_saturate() {
    assert_eq!(cast("sext", "i8", "i64", 0x80), 0xffff_ffff_ffff_ff80);
    assert_eq!(cast("zext", "i8", "i64", 0x80), 0x80);
    assert_eq!(cast("trunc", "i64", "i16", 0x1234_5678), 0x5678);
    let d = |x: f64| x.to_bits();
    assert_eq!(cast("fptosi", "double", "i32", d(1e20)), i32::MAX as u32 as u64);
    assert_eq!(cast("fptosi", "double", "i32", d(-1e20)), i32::MIN as u32 as u64);
    assert_eq!(cast("fptosi", "double", "i64", d(f64::NAN)), 0);
    assert_eq!(cast("fptosi", "double", "i32", d(-2.9)), (-2i32) as u32 as u64);
    // Narrow results saturate at 32 bits, then truncate: 300 becomes 300 & 0xff.
    assert_eq!(cast("fptosi", "double", "i8", d(300.0)), 44);
    assert_eq!(cast("fptoui", "double", "i8", d(-1.0)), 0);
    assert_eq!(cast("fptoui", "float", "i64", u64::from(1e19f32.to_bits())), 1e19f32 as u64);
    assert_eq!(cast("sitofp", "i8", "double", 0xff), d(-1.0));
    assert_eq!(cast("uitofp", "i8", "double", 0xff), d(255.0));
    assert_eq!(cast("sitofp", "i1", "float", 1), u64::from((-1.0f32).to_bits()));
    // One rounding, straight from the integer: going through f64 would round to an even neighbour.
    let n: i64 = (1 << 60) + (1 << 36) + 1;
    assert_eq!(cast("sitofp", "i64", "float", n as u64), u64::from((n as f32).to_bits()));
    assert_eq!(cast("fptrunc", "double", "float", d(0.1)), u64::from(0.1f32.to_bits()));
    assert_eq!(cast("fpext", "float", "double", u64::from(0.1f32.to_bits())), d(f64::from(0.1f32)));
    assert_eq!(cast("bitcast", "float", "i32", u64::from(1.5f32.to_bits())), 0x3fc0_0000);
}

#[test]
fn fcmp_orders_nan_as_llvm_does() {
    let nan = f64::NAN.to_bits();
    let one = 1f64.to_bits();
    let fcmp = |pred: &str, a: u64, b: u64| {
        let m = module(&format!(
            "define i1 @f(double %a, double %b) {{\n  %r = fcmp {pred} double %a, %b\n  ret i1 %r\n}}\n"
        ));
        ok(call(&m, "f", &[a, b]))
    };
    for (pred, with_nan, one_one) in [
        ("oeq", 0, 1),
        ("one", 0, 0),
        ("ord", 0, 1),
        ("olt", 0, 0),
        ("ueq", 1, 1),
        ("une", 1, 0),
        ("uno", 1, 0),
        ("ult", 1, 0),
        ("uge", 1, 1),
        ("true", 1, 1),
        ("false", 0, 0),
    ] {
        assert_eq!(fcmp(pred, nan, one), with_nan, "fcmp {pred} NaN, 1.0");
        assert_eq!(fcmp(pred, one, one), one_one, "fcmp {pred} 1.0, 1.0");
    }
    // Floats compare as floats, not as their bit patterns: -0.0 == 0.0.
    let m = module("define i1 @f(float %a) {\n  %r = fcmp oeq float %a, 0.0\n  ret i1 %r\n}\n");
    assert_eq!(ok(call(&m, "f", &[u64::from((-0.0f32).to_bits())])), 1);
}

const LOOP: &str = "declare void @llvm.experimental.stackmap(i64, i32, ...)

define i64 @sum(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i64 [ 7, %entry ], [ %acc1, %loop ]
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 5, i32 0, i64 %i, i64 %acc)
  %sq = mul i64 %i, %i
  %acc1 = add i64 %acc, %sq
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %done
done:
  ret i64 %acc1
}
";

#[test]
fn resume_needs_every_value_read_after_the_point() {
    let m = module(LOOP);
    let sum = m.function_by_name("sum").unwrap();
    let point = stack_map_call(&m, sum, 5).expect("the stack map call");
    assert_eq!(stack_map_call(&m, sum, 6), None);
    let mut interp = Interpreter::new(&m);
    let value = |name: &str| {
        let f = m.function(sum);
        Value::Inst(InstId(f.insts.iter().position(|i| i.name.as_deref() == Some(name)).unwrap() as u32))
    };
    // At iteration i = 2 the accumulator is 7 + 0 + 1.
    let bound = [(Value::Param(0), 4), (value("i"), 2), (value("acc"), 8)];
    // Values computed after the point need no binding, even when the loop comes round again.
    // SAFETY: the function touches no memory.
    let resumed = unsafe { interp.resume(sum, point, &bound) }.unwrap();
    assert_eq!(resumed, Some(7 + 1 + 4 + 9));
    let e = unsafe { interp.resume(sum, point, &bound[1..]) }.unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.ll:13:3: error: in @sum: %n is not available at the resume point: it is not among the bound (stack map) values"
    );
    let e = unsafe { interp.resume(sum, point, &[(Value::Param(0), 4), (value("i"), 2)]) }.unwrap_err();
    assert!(e.message.starts_with("%acc is not available at the resume point"), "{e}");
    let e = unsafe { interp.resume(sum, point, &[(Value::Param(1), 1)]) }.unwrap_err();
    assert_eq!(e.message, "cannot bind Param(1): the function has no such value");
}

#[test]
fn runaway_loops_and_recursion_are_errors() {
    let m = module("define void @spin() {\nentry:\n  br label %l\nl:\n  br label %l\n}\n");
    let mut interp = Interpreter::new(&m);
    interp.step_limit(1000);
    let e = unsafe { interp.call(FuncId(0), &[]) }.unwrap_err();
    assert_eq!(e.to_string(), "t.ll:5:3: error: in @spin: step limit reached: 1000 instructions executed");
    let m = module("define i64 @down(i64 %n) {\n  %r = call i64 @down(i64 %n)\n  ret i64 %r\n}\n");
    let e = call(&m, "down", &[1]).unwrap_err();
    assert_eq!(e.message, "call depth limit reached: 100000 frames");
    // `tail` calls returning their result reuse the frame: a million of them fit in a 10-frame limit.
    let m = module(
        "define i64 @count(i64 %n, i64 %acc) {\nentry:\n  %z = icmp eq i64 %n, 0\n  br i1 %z, label %done, label %more\n\
         more:\n  %n1 = sub i64 %n, 1\n  %a1 = add i64 %acc, 2\n  %r = tail call i64 @count(i64 %n1, i64 %a1)\n  \
         ret i64 %r\ndone:\n  ret i64 %acc\n}\n",
    );
    let mut interp = Interpreter::new(&m);
    interp.depth_limit(10);
    assert_eq!(unsafe { interp.call(FuncId(0), &[1_000_000, 0]) }.unwrap(), Some(2_000_000));
}

#[test]
fn unreachable_and_null_accesses_are_errors() {
    let m = module(
        "define void @f() {\n  unreachable\n}\ndefine i32 @g(ptr %p) {\n  %v = load i32, ptr %p\n  ret i32 %v\n}\n",
    );
    assert_eq!(call(&m, "f", &[]).unwrap_err().to_string(), "t.ll:2:3: error: in @f: reached 'unreachable'");
    assert_eq!(call(&m, "g", &[0]).unwrap_err().message, "load of i32 from a null pointer");
    let x = 0x1234_5678u32;
    assert_eq!(call(&m, "g", &[&x as *const u32 as u64]).unwrap(), Some(0x1234_5678));
}

#[test]
fn globals_allocas_and_function_pointers() {
    let m = module(
        "@tab = internal global [3 x i16] [i16 5, i16 -1, i16 9], align 8\n@s = private constant [3 x i8] c\"ok\\00\"\n\
         @p = global ptr null\n\
         define internal i64 @twice(i64 %x) {\n  %r = shl i64 %x, 1\n  ret i64 %r\n}\n\
         define i64 @f(i64 %i) {\n  %e = getelementptr [3 x i16], ptr @tab, i64 0, i64 %i\n  %v = load i16, ptr %e\n  \
         %w = sext i16 %v to i64\n  %c = load i8, ptr @s\n  %cw = zext i8 %c to i64\n  \
         %big = alloca i8, align 64\n  %bi = ptrtoint ptr %big to i64\n  %low = and i64 %bi, 63\n  \
         store ptr @twice, ptr @p\n  %fp = load ptr, ptr @p\n  %t = call i64 %fp(i64 %w)\n  \
         %same = icmp eq ptr %fp, @twice\n  %sw = zext i1 %same to i64\n  \
         %a = add i64 %t, %cw\n  %b = add i64 %a, %low\n  %r = add i64 %b, %sw\n  ret i64 %r\n}\n",
    );
    // twice(-1) + 'o' + 0 (the alloca is 64-byte aligned) + 1 (the loaded pointer is @twice).
    assert_eq!(ok(call(&m, "f", &[1])) as i64, -2 + 111 + 1);
    assert_eq!(ok(call(&m, "f", &[2])), 18 + 111 + 1);
    // An embedder's copy of a global replaces the interpreter's.
    let mine: [i16; 3] = [0, 0, 21];
    let mut interp = Interpreter::new(&m);
    interp.global_address(GlobalId(0), mine.as_ptr() as *mut u8);
    assert_eq!(unsafe { interp.call(m.function_by_name("f").unwrap(), &[2]) }.unwrap(), Some(42 + 111 + 1));
}

#[test]
fn declared_functions_go_to_externals_built_ins_or_native_code() {
    let m = module(
        &"declare i32 @putchar(i32)\ndeclare i64 @triple(i64)\ndeclare i64 @strlen(ptr)\n\
         declare i32 @snprintf(ptr, i64, ptr, ...)\n\
         declare double @fmod(double, double)\ndeclare double @atof(ptr)\ndeclare i64 @no_such_function_anywhere()\n\
         declare i64 @many(MANY_PARAMS)\n\
         @s = private constant [6 x i8] c\"hello\\00\"\n@num = private constant [5 x i8] c\"2.75\\00\"\n\
         @fmt = private constant [18 x i8] c\"%.2f|%d|%g|%s|%ld\\00\"\n\
         define i64 @f() {\n  call i32 @putchar(i32 72)\n  %pc = alloca ptr\n  store ptr @putchar, ptr %pc\n  \
         %p = load ptr, ptr %pc\n  call i32 %p(i32 266)\n  %t = call i64 @triple(i64 5)\n  \
         %n = call i64 @strlen(ptr @s)\n  %r = add i64 %t, %n\n  ret i64 %r\n}\n\
         define double @g() {\n  %r = call double @fmod(double 7.5, double 2.0)\n  ret double %r\n}\n\
         define i64 @h(ptr %buf) {\n  \
         call i32 (ptr, i64, ptr, ...) @snprintf(ptr %buf, i64 64, ptr @fmt, double 2.5, i32 7, double 0.125, ptr @s, i64 -3)\n  \
         %n = call i64 @strlen(ptr %buf)\n  ret i64 %n\n}\n\
         define double @k() {\n  %r = call double @atof(ptr @num)\n  ret double %r\n}\n\
         define i64 @m() {\n  %r = call i64 @no_such_function_anywhere()\n  ret i64 %r\n}\n\
         define i64 @x() {\n  %r = call i64 @many(MANY_ARGS)\n  ret i64 %r\n}\n"
            .replace("MANY_PARAMS", &["i64"; 31].join(", "))
            .replace("MANY_ARGS", &(0..31).map(|i| format!("i64 {i}")).collect::<Vec<_>>().join(", ")),
    );
    let mut out = Vec::new();
    let mut interp = Interpreter::new(&m);
    interp.output_to(&mut out).external("triple", |args| Ok(args[0] * 3));
    let run =
        |interp: &mut Interpreter, name, args: &[u64]| unsafe { interp.call(m.function_by_name(name).unwrap(), args) };
    // strlen("hello") is a native call through the process's symbol.
    assert_eq!(run(&mut interp, "f", &[]).unwrap(), Some(15 + 5));
    assert_eq!(run(&mut interp, "g", &[]).unwrap(), Some(1.5f64.to_bits()));
    // A variadic native call with doubles among the integers.
    let mut buf = [0u8; 64];
    let n = run(&mut interp, "h", &[buf.as_mut_ptr() as u64]).unwrap();
    let text = "2.50|7|0.125|hello|-3";
    assert_eq!((n, &buf[..text.len()]), (Some(text.len() as u64), text.as_bytes()));
    assert_eq!(run(&mut interp, "k", &[]).unwrap(), Some(2.75f64.to_bits()));
    let e = run(&mut interp, "x", &[]).unwrap_err();
    assert!(e.message.starts_with("cannot call @many natively: it takes 31 arguments ("), "{e}");
    let e = run(&mut interp, "m", &[]).unwrap_err();
    assert_eq!(
        e.message,
        "@no_such_function_anywhere is declared but not defined: no external is registered for it and the \
         process has no such symbol"
    );
    drop(interp);
    assert_eq!(out, b"H\n", "putchar writes the low byte of its argument");
}

#[test]
fn patch_points_call_their_target_or_nothing() {
    let m = module(
        "declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)\n\
         define i64 @add(i64 %a, i64 %b) {\n  %r = add i64 %a, %b\n  ret i64 %r\n}\n\
         define i64 @f(i64 %x) {\n  \
         %n = call i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 1, i32 16, ptr null, i32 1, i64 %x)\n  \
         %c = call anyregcc i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 2, i32 16, ptr @add, i32 2, i64 %x, i64 3, i64 %n)\n  \
         %r = add i64 %c, %n\n  ret i64 %r\n}\n",
    );
    assert_eq!(ok(call(&m, "f", &[4])), 7);
    let f = m.function_by_name("f").unwrap();
    assert!(stack_map_call(&m, f, 2).is_some_and(|i| m.function(f).inst(i).name.as_deref() == Some("c")));
}

#[test]
fn aggregate_values_are_copies_that_phis_swap_at_once() {
    // Two aggregate phis exchange their values each iteration: both read the old ones.
    let m = module(
        "define i64 @f(i64 %n) {\nentry:\n  br label %loop\nloop:\n  \
         %a = phi { i64, i32 } [ { i64 1, i32 2 }, %entry ], [ %b, %loop ]\n  \
         %b = phi { i64, i32 } [ { i64 10, i32 20 }, %entry ], [ %a2, %loop ]\n  \
         %i = phi i64 [ 0, %entry ], [ %i2, %loop ]\n  \
         %x = extractvalue { i64, i32 } %a, 0\n  %x2 = add i64 %x, 100\n  \
         %a2 = insertvalue { i64, i32 } %a, i64 %x2, 0\n  \
         %i2 = add i64 %i, 1\n  %done = icmp eq i64 %i2, %n\n  br i1 %done, label %exit, label %loop\nexit:\n  \
         %ra = extractvalue { i64, i32 } %a, 0\n  %rb = extractvalue { i64, i32 } %b, 0\n  \
         %r10 = mul i64 %ra, 1000\n  %r = add i64 %r10, %rb\n  ret i64 %r\n}\n",
    );
    // n=1: a={1}, b={10} at exit. n=2: a={10}, b={101}. n=3: a={101}, b={110}.
    assert_eq!(ok(call(&m, "f", &[1])), 1_010);
    assert_eq!(ok(call(&m, "f", &[2])), 10_101);
    assert_eq!(ok(call(&m, "f", &[3])), 101_110);
}

#[test]
fn structs_pass_by_value_byval_and_sret() {
    let m = module(
        "%pair = type { i8, i64 }\n\
         define { i64, i64 } @split(%pair %p) {\n  %a = extractvalue %pair %p, 0\n  %b = extractvalue %pair %p, 1\n  \
         %a64 = sext i8 %a to i64\n  %r0 = insertvalue { i64, i64 } undef, i64 %a64, 0\n  \
         %r1 = insertvalue { i64, i64 } %r0, i64 %b, 1\n  ret { i64, i64 } %r1\n}\n\
         define void @bump(ptr byval(%pair) %p, ptr sret(%pair) %out) {\n  \
         %f = getelementptr %pair, ptr %p, i32 0, i32 1\n  %v = load i64, ptr %f\n  %w = add i64 %v, 1\n  \
         store i64 %w, ptr %f\n  %all = load %pair, ptr %p\n  store %pair %all, ptr %out\n  ret void\n}\n\
         define i64 @main() {\n  %s = alloca %pair\n  store %pair { i8 -3, i64 40 }, ptr %s\n  \
         %o = alloca %pair\n  call void @bump(ptr byval(%pair) %s, ptr sret(%pair) %o)\n  \
         %v = load %pair, ptr %o\n  %r = call { i64, i64 } @split(%pair %v)\n  \
         %a = extractvalue { i64, i64 } %r, 0\n  %b = extractvalue { i64, i64 } %r, 1\n  \
         %orig = getelementptr %pair, ptr %s, i32 0, i32 1\n  %kept = load i64, ptr %orig\n  \
         %ab = add i64 %a, %b\n  %k = mul i64 %kept, 100\n  %sum = add i64 %ab, %k\n  ret i64 %sum\n}\n",
    );
    // bump adds 1 to its copy only: 41 - 3 + 40 * 100.
    assert_eq!(ok(call(&m, "main", &[])), 4038);
    assert_eq!(m.types[0].offsets(), [0, 8]);
}

#[test]
fn aggregate_globals_hold_addresses_and_folded_expressions() {
    let m = module(
        "%op = type { ptr, i32 }\n\
         @ops = global [2 x %op] [%op { ptr @one, i32 5 }, %op { ptr @two, i32 7 }]\n\
         @last = global ptr getelementptr inbounds ([2 x %op], ptr @ops, i64 0, i64 1, i32 1)\n\
         define i32 @one() {\n  ret i32 1\n}\n\
         define i32 @two() {\n  ret i32 2\n}\n\
         define i32 @f(i64 %i) {\n  %fp = getelementptr [2 x %op], ptr @ops, i64 0, i64 %i, i32 0\n  \
         %fn = load ptr, ptr %fp\n  %r = call i32 %fn()\n  %lp = load ptr, ptr @last\n  %l = load i32, ptr %lp\n  \
         %s = mul i32 %r, %l\n  ret i32 %s\n}\n",
    );
    assert_eq!(ok(call(&m, "f", &[0])), 7);
    assert_eq!(ok(call(&m, "f", &[1])), 14);
}

#[test]
fn byval_arguments_to_native_code_are_errors() {
    let m = module(
        "declare void @abs(ptr byval(i64))\n\
         define void @f() {\n  %s = alloca i64\n  call void @abs(ptr byval(i64) %s)\n  ret void\n}\n",
    );
    let e = call(&m, "f", &[]).unwrap_err();
    assert_eq!(e.message, "cannot call native code with a 'byval' argument: register an external for it");
    assert_eq!(e.span, Span::new(4, 3));
}

#[test]
fn interpreted_functions_are_not_passed_to_native_code() {
    let m = module(
        "declare void @qsort(ptr, i64, i64, ptr)\n\
         define i32 @compare(ptr %a, ptr %b) {\n  ret i32 0\n}\n\
         define void @f(ptr %base) {\n  call void @qsort(ptr %base, i64 2, i64 8, ptr @compare)\n  ret void\n}\n",
    );
    let mut data = [2u64, 1u64];
    let e = unsafe { Interpreter::new(&m).call(m.function_by_name("f").unwrap(), &[data.as_mut_ptr() as u64]) }
        .unwrap_err();
    assert!(e.message.starts_with("cannot pass the interpreted function @compare to @qsort"), "{e}");
}

#[test]
fn setjmp_and_longjmp_are_refused_by_name() {
    let text = "@buf = global [200 x i64] zeroinitializer\n\
                declare i32 @_setjmp(ptr) returns_twice\n\
                define i32 @f() {\n  %r = call i32 @_setjmp(ptr @buf)\n  ret i32 %r\n}\n";
    let e = call(&module(text), "f", &[]).unwrap_err();
    assert!(e.message.starts_with("@_setjmp cannot be interpreted: setjmp and longjmp"), "{e}");
    assert_eq!((e.span.line, e.span.col), (4, 3), "{e}");
}
