; RUN: %opt -passes=spiketrap -spiketrap-instrument-all -spiketrap-default-threshold=16.6ms -S %s | FileCheck %s --check-prefix=MS
; RUN: %opt -passes=spiketrap -spiketrap-instrument-all -spiketrap-default-threshold=500us -S %s | FileCheck %s --check-prefix=US
; RUN: %opt -passes=spiketrap -spiketrap-instrument-all -spiketrap-default-threshold=250ns -S %s | FileCheck %s --check-prefix=NS
; RUN: %opt -passes=spiketrap -spiketrap-instrument-all -spiketrap-default-threshold=1s -S %s | FileCheck %s --check-prefix=S
; RUN: %opt -passes=spiketrap -spiketrap-instrument-all -spiketrap-default-threshold=3 -S %s | FileCheck %s --check-prefix=PLAIN
; RUN: %opt -passes=spiketrap -spiketrap-instrument-all -S %s | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt -passes=spiketrap,spiketrap -spiketrap-instrument-all -spiketrap-default-threshold=fast -S %s -o - 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BAD
; RUN: %opt -passes=spiketrap -spiketrap-instrument-all -spiketrap-default-threshold=86401s -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=LONG

; -spiketrap-default-threshold sets threshold_ns in every descriptor; a
; malformed value or one over the maximum (a day: centuries would wrap when
; the runtime turns them into clock ticks) warns once, keeps 0 (the runtime's global threshold) and the
; compile goes on.
; (-spiketrap-instrument-all: these functions are below the size rules.)

target triple = "x86_64-unknown-linux-gnu"

; MS:      @__spiketrap_desc.f = {{.*}} { i32 65552, {{.*}} { i64 16600000, i64 0, i32 0 } }
; US:      @__spiketrap_desc.f = {{.*}} { i32 65552, {{.*}} { i64 500000, i64 0, i32 0 } }
; NS:      @__spiketrap_desc.f = {{.*}} { i32 65552, {{.*}} { i64 250, i64 0, i32 0 } }
; S:       @__spiketrap_desc.f = {{.*}} { i32 65552, {{.*}} { i64 1000000000, i64 0, i32 0 } }
; PLAIN:   @__spiketrap_desc.f = {{.*}} { i32 65552, {{.*}} { i64 3000000, i64 0, i32 0 } }
; DEFAULT: @__spiketrap_desc.f = {{.*}} { i32 65536, i32 trunc {{.*}}, i32 trunc {{.*}}, i32 0, i32 {{.*}} }, align 4

; BAD:     warning: spiketrap: ignoring -spiketrap-default-threshold: 'fast' is not a duration: expected one like 250ns, 500us, 16.6ms or 2s (a plain number is ms); using 0 (the runtime's global threshold)
; BAD-NOT: warning
; LONG:    warning: spiketrap: ignoring -spiketrap-default-threshold: '86401s' is longer than the maximum, 24 hours; using 0 (the runtime's global threshold)
; BAD:     @__spiketrap_desc.f = {{.*}} { i32 65536, i32 trunc {{.*}}, i32 trunc {{.*}}, i32 0, i32 {{.*}} }, align 4
; BAD:     define void @f() {{.*}}prefix
define void @f() {
  ret void
}
