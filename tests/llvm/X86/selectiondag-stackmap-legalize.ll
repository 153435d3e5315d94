; origin: llvm/llvm-project llvm/test/CodeGen/X86/selectiondag-stackmap-legalize.ll at 0276ef1b07764e9c8b05d885c3cecc547124e7e2 (full-line comments other than RUN lines removed)
; RUN: llc < %s -mtriple=x86_64-apple-darwin -mcpu=corei7-avx -enable-patchpoint-liveness=false | FileCheck %s


@p32 = external global i8 addrspace(270)*

%struct1 = type {i32, i64}
%struct2 = type {i1, i1, i1}

declare void @llvm.experimental.stackmap(i64, i32, ...)

define dso_local i32 @main(i32 %argc, i8** %argv) {
entry:
  %i1reg = icmp eq i32 %argc, 5
  %i7reg = zext i1 %i1reg to i7
  %halfreg = sitofp i32 %argc to half
  %ptr32 = load i8 addrspace(270)*, i8 addrspace(270)** @p32
  %structreg1 = insertvalue %struct1 zeroinitializer, i32 %argc, 0
  %structreg2 = insertvalue %struct2 zeroinitializer, i1 %i1reg, 0
  %arrayreg = insertvalue [4 x i32] zeroinitializer, i32 %argc, 0
  %vec = insertelement <4 x i32> zeroinitializer, i32 %argc, i32 1
  %bigvec = insertelement <8 x i32> zeroinitializer, i32 %argc, i32 7
  call void (i64, i32, ...) @llvm.experimental.stackmap(
    i64 0,
    i32 0,
    i1 %i1reg,
    i7 22,
    i7 %i7reg,
    half 1.0,
    half %halfreg,
    i128 66,
    i8 addrspace(270)* %ptr32,
    %struct1 zeroinitializer,
    %struct1 %structreg1,
    %struct2 zeroinitializer,
    %struct2 %structreg2,
    [4 x i32] [i32 0, i32 1, i32 2, i32 3],
    [4 x i32] %arrayreg,
    <4 x i32> %vec,
    <8 x i32> %bigvec,
    <4 x i8> <i8 0, i8 1, i8 2, i8 3>)
  ret i32 0
}
