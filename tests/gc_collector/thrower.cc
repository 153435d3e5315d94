// For gc_invoke.ll: a runtime call that may collect (runtime.c's gc_safepoint), then throws.
extern "C" void gc_safepoint(void);

extern "C" void gc_safepoint_then_throw(long code) {
    gc_safepoint();
    if (code != 0) {
        throw code;
    }
}

// For gc_invoke_registers.ll: throws without collecting.
extern "C" void throw_long(long code) {
    throw code;
}
