#!/usr/bin/env python3
"""Writes ir-examples/sm_*.ll: programs with stack maps for the run-time location checker
(tests/stackmaps/checker_llc.rs). Every stack map execution is announced on stdout by an `S<id>` line with the
live values it passes, so that the values read through a stack map can be checked against the truth.
The announcing code is repetitive, hence this generator; the .ll files are what the tests use.
Usage: scripts/gen-sm-examples.py  (then scripts/check-examples-llc.sh ir-examples/sm_*.ll)"""
import itertools, os, struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
counter = itertools.count()
PRE = '''declare i32 @putchar(i32)
declare void @llvm.experimental.stackmap(i64, i32, ...)

; Ground truth for tests/stackmaps/checker_llc.rs: each stack map execution is announced by a line "S<id>" with
; one token per live value, in operand order: " <bits>:<hex>" (the value's bits), " *<bits>:<hex>"
; (the first bits a pointer points to) or " -" (not checked: undef).
define internal void @dec(i64 %v) {
entry:
  %big = icmp uge i64 %v, 10
  br i1 %big, label %rec, label %digit
rec:
  %q = udiv i64 %v, 10
  call void @dec(i64 %q)
  br label %digit
digit:
  %r = urem i64 %v, 10
  %r32 = trunc i64 %r to i32
  %c = add i32 %r32, 48
  call i32 @putchar(i32 %c)
  ret void
}

define internal void @hex(i64 %v) {
entry:
  %big = icmp uge i64 %v, 16
  br i1 %big, label %rec, label %digit
rec:
  %q = lshr i64 %v, 4
  call void @hex(i64 %q)
  br label %digit
digit:
  %d = and i64 %v, 15
  %d32 = trunc i64 %d to i32
  %letter = icmp uge i32 %d32, 10
  %base = select i1 %letter, i32 87, i32 48
  %c = add i32 %base, %d32
  call i32 @putchar(i32 %c)
  ret void
}

define internal void @sm_begin(i64 %id) {
  call i32 @putchar(i32 83)
  call void @dec(i64 %id)
  ret void
}

define internal void @sm_end() {
  call i32 @putchar(i32 10)
  ret void
}

define internal void @sm_val(i64 %bits, i64 %v) {
  call i32 @putchar(i32 32)
  call void @dec(i64 %bits)
  call i32 @putchar(i32 58)
  call void @hex(i64 %v)
  ret void
}

define internal void @sm_mem(i64 %bits, i64 %v) {
  call i32 @putchar(i32 32)
  call i32 @putchar(i32 42)
  call void @dec(i64 %bits)
  call i32 @putchar(i32 58)
  call void @hex(i64 %v)
  ret void
}

define internal void @sm_skip() {
  call i32 @putchar(i32 32)
  call i32 @putchar(i32 45)
  ret void
}
'''

def bits_of(ty):
    return {'i1':1,'i8':8,'i16':16,'i32':32,'i64':64,'float':32,'double':64}[ty]

def const_bits(ty, v):
    if ty == 'float': return struct.unpack('<I', struct.pack('<f', float(v)))[0]
    if ty == 'double': return struct.unpack('<Q', struct.pack('<d', float(v)))[0]
    if v == 'true': v = 1
    if v == 'false': v = 0
    return int(v) & ((1 << bits_of(ty)) - 1)

def is_const(op):
    return not (op.startswith('%') or op.startswith('@'))

def A(id, items, ind='  '):
    """IR that announces stack map `id` with live values `items` = [(type, operand[, pointee type])]."""
    out = [f'call void @sm_begin(i64 {id})']
    for it in items:
        ty, op = it[0], it[1]
        n = next(counter)
        if op in ('undef', 'poison') or it[2:3] == ('fn',):
            out.append('call void @sm_skip()')
        elif it[2:3] == ('raw',):
            out.append(f'call void @sm_val(i64 64, i64 {it[3]})')
        elif ty == 'ptr' and op == 'null':
            out.append('call void @sm_val(i64 64, i64 0)')
        elif ty == 'ptr':
            pt = it[2]
            out.append(f'%sm.a{n} = load {pt}, ptr {op}')
            if pt == 'double':
                out.append(f'%sm.b{n} = bitcast double %sm.a{n} to i64')
                out.append(f'call void @sm_mem(i64 64, i64 %sm.b{n})')
            elif pt == 'float':
                out.append(f'%sm.b{n} = bitcast float %sm.a{n} to i32')
                out.append(f'%sm.c{n} = zext i32 %sm.b{n} to i64')
                out.append(f'call void @sm_mem(i64 32, i64 %sm.c{n})')
            elif pt == 'i64':
                out.append(f'call void @sm_mem(i64 64, i64 %sm.a{n})')
            else:
                out.append(f'%sm.b{n} = zext {pt} %sm.a{n} to i64')
                out.append(f'call void @sm_mem(i64 {bits_of(pt)}, i64 %sm.b{n})')
        elif is_const(op):
            out.append(f'call void @sm_val(i64 {bits_of(ty)}, i64 {const_bits(ty, op)})')
        elif ty == 'i64':
            out.append(f'call void @sm_val(i64 64, i64 {op})')
        elif ty == 'double':
            out.append(f'%sm.b{n} = bitcast double {op} to i64')
            out.append(f'call void @sm_val(i64 64, i64 %sm.b{n})')
        elif ty == 'float':
            out.append(f'%sm.b{n} = bitcast float {op} to i32')
            out.append(f'%sm.c{n} = zext i32 %sm.b{n} to i64')
            out.append(f'call void @sm_val(i64 32, i64 %sm.c{n})')
        else:
            out.append(f'%sm.b{n} = zext {ty} {op} to i64')
            out.append(f'call void @sm_val(i64 {bits_of(ty)}, i64 %sm.b{n})')
    out.append('call void @sm_end()')
    return '\n'.join(ind + l for l in out)

def SM(id, shadow, items, ind='  '):
    args = ''.join(f', {it[0]} {it[1]}' for it in items)
    return f'{ind}call void (i64, i32, ...) @llvm.experimental.stackmap(i64 {id}, i32 {shadow}{args})'

def write(name, header, body):
    with open(os.path.join(ROOT, 'ir-examples', f'{name}.ll'), 'w') as f:
        f.write(header.strip() + '\n' + f'source_filename = "{name}.ll"\n\n' + PRE + '\n' + body.strip() + '\n')


# 1 ---------------------------------------------------------------- types
items1 = [('i1','%odd'),('i8','%a8'),('i16','%a16'),('i32','%a32'),('i64','%a64'),('float','%f'),('double','%d'),
          ('ptr','%slot','i64'),('ptr','@gword','i64'),('ptr','null')]
items2 = [('i1','true'),('i8','-128'),('i16','-1'),('i32','-1'),('i64','4294967296'),('float','1.5'),('double','2.75')]
write('sm_types', '''
; One live value of every scalar type (i1, i8, i16, i32, i64, float, double, ptr to an alloca, to a
; global, null) computed at run time, then the same types as constants. Stack maps are announced on
; stdout first (see the helpers below). Exit status: a64 & 63.
''', f'''
@seed = internal global i64 1234567, align 8
@gword = internal global i64 -6148914691236517206, align 8

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  %a64 = mul i64 %s, 1000003
  %a32 = trunc i64 %a64 to i32
  %a16 = trunc i64 %s to i16
  %n8 = sub i64 0, %s
  %a8 = trunc i64 %n8 to i8
  %odd = trunc i64 %s to i1
  %fs = sitofp i64 %s to float
  %f = fmul float %fs, 1.5
  %ds = sitofp i64 %s to double
  %d = fdiv double %ds, 3.0
  %slot = alloca i64, align 8
  store i64 %a64, ptr %slot
{A(1, items1)}
{SM(1, 0, items1)}
{A(2, items2)}
{SM(2, 0, items2)}
  %r = trunc i64 %a64 to i32
  %st = and i32 %r, 63
  ret i32 %st
}}
''')

# 2 ---------------------------------------------------------------- many live values
N = 34
defs = []
for i in range(N):
    defs.append(f'  %m{i} = mul i64 %s, {i*7919+13}')
    defs.append(f'  %v{i} = xor i64 %m{i}, {i*104729+1}')
for i in range(4):
    defs.append(f'  %w{i} = trunc i64 %v{i*5} to i32')
v = [('i64', f'%v{i}') for i in range(N)]
w = [('i32', f'%w{i}') for i in range(4)]
g10 = v[0:12]
g11 = v[12:24][::-1]
g12 = v[24:34] + w[0:2]
g13 = w[2:4] + v[0:10] + [('i64', str(c)) for c in (0, 1, -1, 7, 4294967296, -2147483648, 2147483647, 4294967296, 123456789012)] + [('i32', str(c)) for c in (5, -5, 65536)] + [('i8', str(c)) for c in (-128, 127, 1)] + [('i16', str(c)) for c in (-1, 300, 32767, -32768, 9)]
sums = ['  %sum0 = add i64 %v0, 0'] + [f'  %sum{i} = add i64 %sum{i-1}, %v{i}' for i in range(1, N)]
write('sm_spill_many', '''
; 38 simultaneously live values (34 i64, 4 i32), more than either target has registers for, all live
; across four stack maps and the calls that announce them: some sit in callee-saved registers, the
; rest are spilled (Indirect locations). ID 10 is announced after the map, the others before. llc-19
; -O0 cannot give a stack map more than 13 register operands on x86-64 ("ran out of registers"), so
; each map records at most 12 of the values; ID 13 adds 23 constants (35 locations).
; Exit status: sum & 127.
''', f'''
@seed = internal global i64 987654321, align 8

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
{chr(10).join(defs)}
{SM(10, 0, g10)}
{A(10, g10)}
{A(11, g11)}
{SM(11, 8, g11)}
{A(12, g12)}
{SM(12, 0, g12)}
{A(13, g13)}
{SM(13, 16, g13)}
{chr(10).join(sums)}
  %w01 = add i32 %w0, %w1
  %w23 = add i32 %w2, %w3
  %ws = add i32 %w01, %w23
  %t = trunc i64 %sum{N-1} to i32
  %tw = add i32 %t, %ws
  %st = and i32 %tw, 127
  ret i32 %st
}}
''')

# 3 ---------------------------------------------------------------- across calls
it20 = [('i64','%x'),('i32','%y'),('double','%dd'),('i64','%r1')]
it21 = [('i64','%r1'),('i64','%r2'),('i64','%x'),('i32','%y'),('double','%dd'),('float','%ff')]
write('sm_across_calls', '''
; Values defined before calls and live across them; the stack maps come right after calls, so a
; call's result is live in the return register at the map (ID 20, 21). Exit status: (r1 + r2) & 127.
''', f'''
@seed = internal global i64 4242, align 8

define internal i64 @mix(i64 %a, i64 %b) {{
entry:
  %m = mul i64 %a, 31
  %r = xor i64 %m, %b
  ret i64 %r
}}

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  %x = add i64 %s, 1000
  %y = trunc i64 %s to i32
  %ds = sitofp i64 %s to double
  %dd = fmul double %ds, 0.25
  %r1 = call i64 @mix(i64 %x, i64 %s)
{SM(20, 0, it20)}
{A(20, it20)}
  %y64 = sext i32 %y to i64
  %r2 = call i64 @mix(i64 %r1, i64 %y64)
  %ff = fptrunc double %dd to float
{SM(21, 0, it21)}
{A(21, it21)}
  %t = add i64 %r1, %r2
  %t32 = trunc i64 %t to i32
  %st = and i32 %t32, 127
  ret i32 %st
}}
''')

# 4 ---------------------------------------------------------------- allocas
it30 = [('ptr','%p8','i8'),('ptr','%p16','i16'),('ptr','%p32','i32'),('ptr','%p64','i64'),('ptr','%pd','double'),('ptr','%arr','i64')]
it31 = [('ptr','%arr','i64'),('ptr','%p64','i64'),('i64','%s')]
it32 = [('ptr','%elt','i64'),('ptr','%p8','i8')]
write('sm_allocas', '''
; Allocas passed directly (Direct locations): i8, i16, i32, i64, double and [4 x i64], and a GEP into
; the array (a plain pointer). IDs 30 and 31 are adjacent with no code between (one address, two
; records). The checker compares what the pointers point to. Exit status: 42.
''', f'''
@seed = internal global i64 77, align 8

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  %p8 = alloca i8, align 1
  %p16 = alloca i16, align 2
  %p32 = alloca i32, align 4
  %p64 = alloca i64, align 8
  %pd = alloca double, align 8
  %arr = alloca [4 x i64], align 16
  %t8 = trunc i64 %s to i8
  store i8 %t8, ptr %p8
  %t16 = mul i64 %s, 1001
  %u16 = trunc i64 %t16 to i16
  store i16 %u16, ptr %p16
  %t32 = mul i64 %s, 100003
  %u32 = trunc i64 %t32 to i32
  store i32 %u32, ptr %p32
  %t64 = mul i64 %s, 10000000019
  store i64 %t64, ptr %p64
  %td = sitofp i64 %s to double
  store double %td, ptr %pd
  store i64 %s, ptr %arr
  %elt = getelementptr [4 x i64], ptr %arr, i64 0, i64 2
  %e2 = add i64 %s, 2
  store i64 %e2, ptr %elt
{A(30, it30)}
{A(31, it31)}
{SM(30, 0, it30)}
{SM(31, 0, it31)}
{A(32, it32)}
{SM(32, 0, it32)}
  ret i32 42
}}
''')

# 5 ---------------------------------------------------------------- loop
it40 = [('i32','%i'),('i64','%acc'),('double','%fd'),('i8','%b')]
write('sm_loop', '''
; A stack map (ID 40, shadow 8) inside a counted loop of 5 iterations: five executions with changing
; phi values. ID 41 after the loop. Exit status: acc & 127.
''', f'''
@seed = internal global i64 3, align 8

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i64 [ %s, %entry ], [ %acc1, %loop ]
  %fd = phi double [ 1.0, %entry ], [ %fd1, %loop ]
  %b = trunc i32 %i to i8
{SM(40, 8, it40)}
{A(40, it40)}
  %i64 = zext i32 %i to i64
  %acc0 = mul i64 %acc, 3
  %acc1 = add i64 %acc0, %i64
  %fd1 = fmul double %fd, -1.5
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 5
  br i1 %more, label %loop, label %done
done:
{SM(41, 0, [('i64','%acc1'),('i32','%i1')])}
{A(41, [('i64','%acc1'),('i32','%i1')])}
  %t = trunc i64 %acc1 to i32
  %st = and i32 %t, 127
  ret i32 %st
}}
''')

# 6 ---------------------------------------------------------------- branches
it50 = [('i32','%i'),('i64','%even_v')]
it51 = [('i32','%i'),('i64','%odd_v'),('i1','%big')]
write('sm_branches', '''
; Stack maps in both arms of a branch inside a loop of 6 iterations (ID 50 on even, 51 on odd i), each
; with shadow 16 directly before the branch to the join block (the shadow needs padding), and one
; with shadow 16 directly before a `ret` (ID 52). Exit status: 50 + 7 = 57.
''', f'''
@seed = internal global i64 10, align 8

define internal i64 @tail(i64 %v) {{
entry:
{A(52, [('i64','%v')])}
{SM(52, 16, [('i64','%v')])}
  ret i64 %v
}}

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %join ]
  %i64 = zext i32 %i to i64
  %bit = and i32 %i, 1
  %even = icmp eq i32 %bit, 0
  %big = icmp ugt i32 %i, 2
  br i1 %even, label %then, label %else
then:
  %even_v = mul i64 %s, %i64
{A(50, it50)}
{SM(50, 16, it50)}
  br label %join
else:
  %odd_v = sub i64 %s, %i64
{A(51, it51)}
{SM(51, 16, it51)}
  br label %join
join:
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 6
  br i1 %more, label %loop, label %done
done:
  %r = call i64 @tail(i64 7)
  %r32 = trunc i64 %r to i32
  %st = add i32 %r32, 50
  ret i32 %st
}}
''')


# 7 ---------------------------------------------------------------- several functions
write('sm_functions', '''
; Stack maps in four functions (internal and external linkage, one called from the other), each
; called several times: ID 60 in @scale (3 calls), 61 and 62 in @combine (2 calls), 63 in main.
; Exit status: result & 127.
''', f'''
@seed = internal global i64 21, align 8

define internal i64 @scale(i64 %x, i32 %k) {{
entry:
  %k64 = sext i32 %k to i64
  %r = mul i64 %x, %k64
{A(60, [('i64','%x'),('i32','%k'),('i64','%r')])}
{SM(60, 0, [('i64','%x'),('i32','%k'),('i64','%r')])}
  ret i64 %r
}}

define i64 @combine(i64 %a, i64 %b) {{
entry:
{SM(61, 8, [('i64','%a'),('i64','%b')])}
{A(61, [('i64','%a'),('i64','%b')])}
  %sa = call i64 @scale(i64 %a, i32 3)
  %sb = call i64 @scale(i64 %b, i32 -2)
  %r = add i64 %sa, %sb
{A(62, [('i64','%r'),('i64','%sa'),('i64','%sb')])}
{SM(62, 0, [('i64','%r'),('i64','%sa'),('i64','%sb')])}
  ret i64 %r
}}

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  %c1 = call i64 @combine(i64 %s, i64 5)
  %c2 = call i64 @combine(i64 %c1, i64 %s)
  %l = call i64 @scale(i64 %c2, i32 7)
{A(63, [('i64','%c1'),('i64','%c2'),('i64','%l')])}
{SM(63, 0, [('i64','%c1'),('i64','%c2'),('i64','%l')])}
  %t = trunc i64 %l to i32
  %st = and i32 %t, 127
  ret i32 %st
}}
''')

# 8 ---------------------------------------------------------------- shadows
write('sm_shadows', '''
; Shadows 0, 4, 8, 12, 16 and 32 (AArch64 needs multiples of 4): maps followed by arithmetic, by a
; call (x86-64 pads before the call), by another map, by a branch and by a `ret` (padding needed).
; Exit status: 33.
''', f'''
@seed = internal global i64 99, align 8

define internal i64 @last(i64 %v) {{
entry:
{A(105, [('i64','%v')])}
{SM(105, 32, [('i64','%v')])}
  ret i64 %v
}}

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
{A(100, [('i64','%s')])}
{SM(100, 0, [('i64','%s')])}
  %a = mul i64 %s, 3
  %b = add i64 %a, 17
{A(101, [('i64','%a'),('i64','%b')])}
{SM(101, 4, [('i64','%a'),('i64','%b')])}
  %c = xor i64 %b, 255
  %d = sub i64 %c, %a
{A(102, [('i64','%c'),('i64','%d')])}
{A(103, [('i64','%d')])}
{SM(102, 8, [('i64','%c'),('i64','%d')])}
{SM(103, 12, [('i64','%d')])}
  %e = call i64 @last(i64 %d)
{A(104, [('i64','%e')])}
{SM(104, 16, [('i64','%e')])}
  %big = icmp ugt i64 %e, 1000
  br i1 %big, label %yes, label %no
yes:
  br label %out
no:
  br label %out
out:
  %r = phi i32 [ 33, %yes ], [ 33, %no ]
  ret i32 %r
}}
''')

# 9 ---------------------------------------------------------------- arguments
args = [('i1','%a1'),('i8','%a8'),('i16','%a16'),('i32','%a32'),('i64','%a64'),('float','%af'),('double','%ad'),('ptr','%ap','i32')]
write('sm_args', '''
; A stack map at function entry whose live values are the parameters (i1, i8, i16, i32, i64, float,
; double, ptr), still in their argument registers at -O2; announced after the map. Called twice.
; Exit status: 5.
''', f'''
@seed = internal global i64 -3, align 8
@cell = internal global i32 -559038737, align 4

define internal void @take(i1 %a1, i8 %a8, i16 %a16, i32 %a32, i64 %a64, float %af, double %ad, ptr %ap) {{
entry:
{SM(110, 0, args)}
{A(110, args)}
  ret void
}}

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  %b = trunc i64 %s to i1
  %c = trunc i64 %s to i8
  %h = trunc i64 %s to i16
  %w = trunc i64 %s to i32
  %f = sitofp i64 %s to float
  %d = sitofp i64 %s to double
  call void @take(i1 %b, i8 %c, i16 %h, i32 %w, i64 %s, float %f, double %d, ptr @cell)
  %s2 = mul i64 %s, -1001
  %b2 = trunc i64 %s2 to i1
  %c2 = trunc i64 %s2 to i8
  %h2 = trunc i64 %s2 to i16
  %w2 = trunc i64 %s2 to i32
  %f2 = fdiv float %f, 7.0
  %d2 = fdiv double %d, 7.0
  %slot = alloca i32, align 4
  store i32 %w2, ptr %slot
  call void @take(i1 %b2, i8 %c2, i16 %h2, i32 %w2, i64 %s2, float %f2, double %d2, ptr %slot)
  ret i32 5
}}
''')

# 10 --------------------------------------------------------------- floats
fdefs = []
for i in range(12):
    fdefs.append(f'  %fd{i} = fmul double %base, {i+1.5}')
    fdefs.append(f'  %ff{i} = fptrunc double %fd{i} to float')
    fdefs.append(f'  %fh{i} = fmul float %ff{i}, -0.5')
g120 = [('double', f'%fd{i}') for i in range(12)]
g121 = [('float', f'%fh{i}') for i in range(12)]
g122 = [('double','%fd0'),('float','%fh11'),('double','%fd11'),('float','%ff5'),('double','0.5'),('float','-2.25')]
fsum = ['  %q0 = fadd double %fd0, 0.0'] + [f'  %q{i} = fadd double %q{i-1}, %fd{i}' for i in range(1, 12)]
hsum = ['  %h0 = fadd float %fh0, 0.0'] + [f'  %h{i} = fadd float %h{i-1}, %fh{i}' for i in range(1, 12)] + \
       ['  %k0 = fadd float %ff0, 0.0'] + [f'  %k{i} = fadd float %k{i-1}, %ff{i}' for i in range(1, 12)]
write('sm_floats', '''
; 36 float and double values live across the announcing calls: x86-64 has no callee-saved XMM
; registers (all spilled), AArch64 keeps some in d8-d15. ID 122 mixes registers and FP constants.
; Exit status: the truncated sum & 127.
''', f'''
@seed = internal global i64 12345, align 8

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  %base = sitofp i64 %s to double
{chr(10).join(fdefs)}
{A(120, g120)}
{SM(120, 0, g120)}
{SM(121, 0, g121)}
{A(121, g121)}
{A(122, g122)}
{SM(122, 0, g122)}
{chr(10).join(fsum)}
{chr(10).join(hsum)}
  %hd = fpext float %h11 to double
  %kd = fpext float %k11 to double
  %t0 = fadd double %q11, %hd
  %t1 = fadd double %t0, %kd
  %ti = fptosi double %t1 to i32
  %st = and i32 %ti, 127
  ret i32 %st
}}
''')

# 11 --------------------------------------------------------------- constants
c130 = [('i64','4294967296'),('i64','-1'),('i8','-128'),('i64','4294967296'),('i16','-1'),('i32','2147483647'),
        ('i32','-2147483648'),('i64','-2147483649'),('i64','2147483648'),('i64','9223372036854775807'),('i1','false'),('i1','true')]
c131 = [('i64','undef'),('i32','poison'),('ptr','null'),('ptr','inttoptr (i64 4096 to ptr)','raw',4096),('double','-0.0'),('float','3.0'),('i64','0')]
c132 = [('i64','4294967296'),('i64','-4294967296'),('i64','%s'),('i8','-1'),('i16','-32768')]
write('sm_constants', '''
; Constants: small (Constant) and large (ConstantIndex), i64 4294967296 repeated in one map and in
; another function (one pool entry per module), -1, i8 -128, i16 -1, i32 extremes, i1, undef and
; poison (not checked), null, inttoptr, FP constants. llc-19 extends sub-64-bit constants differently
; on x86-64 and AArch64 (docs: stack map format 3.3); the values compare by IR type. Exit status: 9.
''', f'''
@seed = internal global i64 -7, align 8

define internal void @more(i64 %s) {{
entry:
{A(132, c132)}
{SM(132, 0, c132)}
  ret void
}}

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
{A(130, c130)}
{SM(130, 0, c130)}
{A(131, c131)}
{SM(131, 0, c131)}
  call void @more(i64 %s)
  ret i32 9
}}
''')


# 12 --------------------------------------------------------------- nested loops
i90 = [('i8','%o'),('i16','%n'),('i64','%prod'),('float','%acc')]
i91 = [('i8','%o'),('float','%acc1'),('i64','%tot1')]
write('sm_nested_loops', '''
; Nested loops, 3 outer by 4 inner iterations: ID 90 in the inner body runs 12 times, ID 91 after each
; inner loop 3 times; narrow (i8, i16) loop counters. Exit status: total & 127.
''', f'''
@seed = internal global i64 5, align 8

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  br label %outer
outer:
  %o = phi i8 [ 0, %entry ], [ %o1, %outer_end ]
  %tot = phi i64 [ 0, %entry ], [ %tot1, %outer_end ]
  br label %inner
inner:
  %n = phi i16 [ 0, %outer ], [ %n1, %inner ]
  %acc = phi float [ 0.5, %outer ], [ %acc1, %inner ]
  %tot0 = phi i64 [ %tot, %outer ], [ %tot1, %inner ]
  %o64 = zext i8 %o to i64
  %n64 = zext i16 %n to i64
  %on = mul i64 %o64, %n64
  %prod = add i64 %on, %s
{SM(90, 0, i90)}
{A(90, i90)}
  %acc1 = fadd float %acc, 1.25
  %tot1 = add i64 %tot0, %prod
  %n1 = add i16 %n, 1
  %more = icmp ult i16 %n1, 4
  br i1 %more, label %inner, label %outer_end
outer_end:
{A(91, i91)}
{SM(91, 8, i91)}
  %o1 = add i8 %o, 1
  %again = icmp ult i8 %o1, 3
  br i1 %again, label %outer, label %done
done:
  %t = trunc i64 %tot1 to i32
  %st = and i32 %t, 127
  ret i32 %st
}}
''')

# 13 --------------------------------------------------------------- recursion
write('sm_recursion', '''
; A recursive function with a map at entry (ID 70, 6 executions for n = 5..0) and one after the
; recursive call (ID 71, 5 executions, innermost first) whose values are live across the call.
; Exit status: walk(5) & 127.
''', f'''
@seed = internal global i64 5, align 8

define internal i64 @walk(i64 %n, i32 %depth) {{
entry:
{A(70, [('i64','%n'),('i32','%depth')])}
{SM(70, 0, [('i64','%n'),('i32','%depth')])}
  %leaf = icmp eq i64 %n, 0
  br i1 %leaf, label %base, label %rec
base:
  ret i64 1
rec:
  %n1 = sub i64 %n, 1
  %d1 = add i32 %depth, 1
  %r = call i64 @walk(i64 %n1, i32 %d1)
  %r2 = mul i64 %r, 3
  %r3 = add i64 %r2, %n
{SM(71, 0, [('i64','%n'),('i64','%r'),('i64','%r3'),('i32','%depth')])}
{A(71, [('i64','%n'),('i64','%r'),('i64','%r3'),('i32','%depth')])}
  ret i64 %r3
}}

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  %r = call i64 @walk(i64 %s, i32 0)
  %t = trunc i64 %r to i32
  %st = and i32 %t, 127
  ret i32 %st
}}
''')

# 14 --------------------------------------------------------------- switch
def case(id, vals):
    # Announced after the map: a map that ends a fall-through block would share its address with
    # the join block, which every case reaches.
    return f'''{SM(id, 0, vals)}
{A(id, vals)}'''
write('sm_switch', '''
; A switch in a loop of 9 iterations: each case and the default have their own map (IDs 80-83), so
; the executions interleave as 80 81 82 83 80 81 82 83 80. Each map is followed by code of its own
; block: a map that ends a block recorded at the next instruction, which may be the join block's.
; Exit status: 80.
''', f'''
@seed = internal global i64 1000, align 8

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %next ]
  %i64 = zext i32 %i to i64
  %v = add i64 %s, %i64
  %sel = urem i32 %i, 4
  switch i32 %sel, label %other [ i32 0, label %c0
                                  i32 1, label %c1
                                  i32 2, label %c2 ]
c0:
{case(80, [('i32','%i'),('i64','%v')])}
  br label %next
c1:
  %v1 = mul i64 %v, 2
{case(81, [('i32','%i'),('i64','%v1')])}
  br label %next
c2:
  %v2 = trunc i64 %v to i16
{case(82, [('i16','%v2')])}
  br label %next
other:
  %v3 = sub i64 0, %v
{case(83, [('i64','%v3'),('i32','%sel')])}
  br label %next
next:
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 9
  br i1 %more, label %loop, label %done
done:
  ret i32 80
}}
''')

# 15 --------------------------------------------------------------- repeated values, empty maps
r140 = [('i64','%x'),('i64','%x'),('i64','%x'),('i32','%y'),('i64','%x'),('i32','%y')]
r142 = [('i64','%x')]
write('sm_repeated', '''
; The same value several times in one map (ID 140), a map without live values (ID 141), a map of
; one value (ID 142), the same value as a register and as a constant-folded copy (ID 143), and two
; empty maps at one address (IDs 144, 145). Exit status: 14.
''', f'''
@seed = internal global i64 314159, align 8

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  %x = mul i64 %s, 17
  %y = trunc i64 %x to i32
{A(140, r140)}
{SM(140, 0, r140)}
{A(141, [])}
{SM(141, 0, [])}
{SM(142, 0, r142)}
{A(142, r142)}
  %k = and i64 %s, 0
  %z = add i64 %k, 5
{A(143, [('i64','%z'),('i64','5'),('i64','%s')])}
{SM(143, 0, [('i64','%z'),('i64','5'),('i64','%s')])}
{A(144, [])}
{A(145, [])}
{SM(144, 0, [])}
{SM(145, 0, [])}
  ret i32 14
}}
''')

# 16 --------------------------------------------------------------- narrow values
ndefs = []
for i in range(24):
    ndefs.append(f'  %sh{i} = lshr i64 %s, {i}')
    if i % 3 == 0:
        ndefs.append(f'  %n{i} = icmp ult i64 %sh{i}, {1000 + i*37}')
        ty = 'i1'
    elif i % 3 == 1:
        ndefs.append(f'  %n{i} = trunc i64 %sh{i} to i8')
        ty = 'i8'
    else:
        ndefs.append(f'  %n{i} = trunc i64 %sh{i} to i16')
        ty = 'i16'
tys = ['i1','i8','i16']
narrow = [(tys[i % 3], f'%n{i}') for i in range(24)]
use = []
for i in range(24):
    use.append(f'  %z{i} = zext {tys[i%3]} %n{i} to i32')
use.append('  %u0 = add i32 %z0, 0')
use += [f'  %u{i} = add i32 %u{i-1}, %z{i}' for i in range(1, 24)]
write('sm_narrow', '''
; 24 narrow values (i1 from compares, i8, i16) live across calls, in three maps of 8 (IDs 150-152)
; and one with all of them at -O2 reachable as spill slots of 1 and 2 bytes (ID 153 repeats 12).
; Exit status: sum & 127.
''', f'''
@seed = internal global i64 8070450532247928831, align 8

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
{chr(10).join(ndefs)}
{A(150, narrow[0:8])}
{SM(150, 0, narrow[0:8])}
{A(151, narrow[8:16])}
{SM(151, 0, narrow[8:16])}
{SM(152, 0, narrow[16:24])}
{A(152, narrow[16:24])}
{A(153, narrow[6:18])}
{SM(153, 0, narrow[6:18])}
{chr(10).join(use)}
  %st = and i32 %u23, 127
  ret i32 %st
}}
''')

# 17 --------------------------------------------------------------- globals
g160 = [('ptr','@g8','i8'),('ptr','@g32','i32'),('ptr','%e2','i32'),('ptr','@gd','double'),('ptr','%loaded','i32'),('ptr','@helper','fn')]
write('sm_globals', '''
; Pointers into globals: to an i8, to an array and a GEP into it (symbol offset 8), to a double, a
; pointer loaded from a global, and a function address (not announced: only its symbol is compared).
; Exit status: 16.
''', f'''
@g8 = internal global i8 -7, align 1
@g32 = internal global [4 x i32] [i32 10, i32 20, i32 -30, i32 40], align 4
@gd = global double 6.25, align 8
@gp = internal global ptr null, align 8
@seed = internal global i64 2, align 8

define internal i32 @helper(i32 %x) {{
entry:
  %r = add i32 %x, 1
  ret i32 %r
}}

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  %e2 = getelementptr [4 x i32], ptr @g32, i64 0, i64 %s
  %e3 = getelementptr [4 x i32], ptr @g32, i64 0, i64 3
  store volatile ptr %e3, ptr @gp
  %loaded = load volatile ptr, ptr @gp
{A(160, g160)}
{SM(160, 0, g160)}
  %h = call i32 @helper(i32 15)
  ret i32 %h
}}
''')


# 18 --------------------------------------------------------------- structs
s170 = [('i64','%x'),('double','%y'),('i32','%v0'),('i16','%v1'),('ptr','%v2','i32'),('i8','%c'),('i16','%f1'),
        ('ptr','%fp','double')]
s171 = [('i64','%a0'),('i32','%a1'),('ptr','%slot','i64')]
s172 = [('i64','%k0'),('double','%k1')]
write('sm_structs', '''
; Stack maps whose live values come from struct fields: extractvalue from a struct a call returns
; ({ i64, double } in two registers), from an aggregate load of an array-of-structs element, from a
; nested array member, a GEP load of a field, a GEP to a double field; fields of an aggregate phi
; built by insertvalue in a loop (from a constant struct), and of a select of two structs.
; Exit status: (x + v0 + f1 + a0 + k0) & 63.
''', f'''
%struct.node = type {{ i32, i16, ptr, [2 x i8] }}
%struct.pair = type {{ i64, double }}

@nodes = internal global [3 x %struct.node] [%struct.node {{ i32 7, i16 -2, ptr @nodes, [2 x i8] c"ab" }}, %struct.node {{ i32 -9, i16 300, ptr getelementptr inbounds ([3 x %struct.node], ptr @nodes, i64 0, i64 2), [2 x i8] c"cd" }}, %struct.node zeroinitializer], align 16
@seed = internal global i64 3, align 8

define internal {{ i64, double }} @make(i64 %a) {{
entry:
  %f = sitofp i64 %a to double
  %h = fmul double %f, 5.000000e-01
  %p0 = insertvalue {{ i64, double }} undef, i64 %a, 0
  %p1 = insertvalue {{ i64, double }} %p0, double %h, 1
  ret {{ i64, double }} %p1
}}

define i32 @main() {{
entry:
  %s = load volatile i64, ptr @seed
  %pr = call {{ i64, double }} @make(i64 %s)
  %x = extractvalue {{ i64, double }} %pr, 0
  %y = extractvalue {{ i64, double }} %pr, 1
  %n1 = getelementptr inbounds [3 x %struct.node], ptr @nodes, i64 0, i64 1
  %v = load %struct.node, ptr %n1, align 8
  %v0 = extractvalue %struct.node %v, 0
  %v1 = extractvalue %struct.node %v, 1
  %v2 = extractvalue %struct.node %v, 2
  %c = extractvalue %struct.node %v, 3, 1
  %f1p = getelementptr inbounds %struct.node, ptr @nodes, i64 0, i32 1
  %f1 = load i16, ptr %f1p, align 4
  %slot = alloca %struct.pair, align 8
  %q0 = insertvalue %struct.pair undef, i64 %x, 0
  %q1 = insertvalue %struct.pair %q0, double %y, 1
  store %struct.pair %q1, ptr %slot, align 8
  %fp = getelementptr inbounds %struct.pair, ptr %slot, i32 0, i32 1
{A(170, s170)}
{SM(170, 0, s170)}
  br label %loop

loop:
  %acc = phi {{ i64, i32 }} [ {{ i64 1, i32 0 }}, %entry ], [ %acc2, %loop ]
  %a0 = extractvalue {{ i64, i32 }} %acc, 0
  %a1 = extractvalue {{ i64, i32 }} %acc, 1
{A(171, s171)}
{SM(171, 8, s171)}
  %m = mul i64 %a0, 3
  %i1 = add i32 %a1, 1
  %t = insertvalue {{ i64, i32 }} %acc, i64 %m, 0
  %acc2 = insertvalue {{ i64, i32 }} %t, i32 %i1, 1
  store i64 %m, ptr %slot, align 8
  %done = icmp eq i32 %i1, 4
  br i1 %done, label %exit, label %loop

exit:
  %odd = trunc i64 %s to i1
  %other = insertvalue %struct.pair %q1, i64 11, 0
  %pick = select i1 %odd, %struct.pair %other, %struct.pair %q1
  %k0 = extractvalue %struct.pair %pick, 0
  %k1 = extractvalue %struct.pair %pick, 1
{A(172, s172)}
{SM(172, 0, s172)}
  %sum1 = add i64 %x, %a0
  %sum2 = add i64 %sum1, %k0
  %w0 = sext i32 %v0 to i64
  %sum3 = add i64 %sum2, %w0
  %w1 = sext i16 %f1 to i64
  %sum4 = add i64 %sum3, %w1
  %st64 = and i64 %sum4, 63
  %st = trunc i64 %st64 to i32
  ret i32 %st
}}
''')
