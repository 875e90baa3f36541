# lit configuration for spiketrap: IR tests run the pass alone under opt;
# end-to-end tests compile with clang + the plugin, link the runtime and run.
import os
import lit.formats

config.name = "spiketrap"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "unit", "fuzz", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)

site = lit_config.params.get("spiketrap_site")
if not site:
    lit_config.fatal("run through ctest, or pass --param spiketrap_site=<build>/test/lit.site.cfg.py")
lit_config.load_config(config, site)
# ctest runs one lit per test file, in parallel: each gets its own exec root,
# or they would all rewrite one .lit_test_times.txt and trip over it.
config.test_exec_root = lit_config.params.get(
    "spiketrap_exec_root", os.path.join(config.spiketrap_obj_root, "lit"))

tools = config.llvm_tools_dir
config.environment["PATH"] = os.pathsep.join([tools, config.environment.get("PATH", os.environ["PATH"])])
# Tests set SPIKETRAP_OPTIONS themselves; never inherit the caller's.
config.environment.pop("SPIKETRAP_OPTIONS", None)

plugin = config.spiketrap_plugin
# Another target (utils/test-aarch64.sh): the host's clang and plugin compile
# for it, a runtime built for it (a runtime-only build) is linked, and `%run`
# runs the programs (e.g. under qemu-aarch64). Tests that cannot work under
# an emulator say `UNSUPPORTED: emulated`, with the reason.
target = lit_config.params.get("spiketrap_target", "")
runtime = config.spiketrap_runtime
run = ""
if target:
    runtime = lit_config.params.get("spiketrap_runtime")
    if not runtime:
        lit_config.fatal("spiketrap_target needs --param spiketrap_runtime=<its libspiketrap.a>")
    run = lit_config.params.get("spiketrap_run", "")
    if run:
        config.available_features.add("emulated")
        # Emulation makes a run ~10x longer, and so ~10x likelier to meet
        # a hiccup of the host (another process on the CPU) longer than a
        # 1 ms threshold: a failed test runs once more (lit says FLAKYPASS).
        config.test_retry_attempts = 1
# The documented form: both flags, so -mllvm options reach the plugin on 19-21.
st = "-fplugin=%s -fpass-plugin=%s -I%s" % (plugin, plugin, config.spiketrap_include)
# How functions are switched on and off: patchable sites by default, the
# flag design with --param spiketrap_switch=flag (CI runs the program tests
# both ways: LIT_OPTS="--param spiketrap_switch=flag" ctest ...). Tests of
# one design say REQUIRES: switch-sites or switch-flag.
switch = lit_config.params.get("spiketrap_switch", "")
if switch:
    st += " -mllvm -spiketrap-switch=" + switch
config.available_features.add("switch-" + (switch or "sites"))
# A sanitizer build of the runtime: programs link with the same sanitizer,
# and tests that cannot run under it say `UNSUPPORTED: sanitize-<name>`.
san = ""
if config.spiketrap_sanitize:
    # A sanitized runtime may keep C++ library calls the plain build inlines:
    # C programs then need -lstdc++ (the plain runtime does not, see
    # link/runtime-exports.test).
    # -fsanitize=function claims the bytes before each function that a
    # patchable site needs (such functions get a thunk: ir/sites-claimed.ll);
    # the programs leave it out so their sites are tested under the others.
    san = (" -fsanitize=%s -fno-sanitize=function -fno-sanitize-recover=all"
           " -lstdc++ -Wno-unused-command-line-argument"
           % config.spiketrap_sanitize)
    for name in config.spiketrap_sanitize.split(","):
        config.available_features.add("sanitize-" + name)
    # Manual scopes are identified by the address of a local object, which
    # ASan's fake stack (detect_stack_use_after_return) moves off the stack.
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0")
    config.environment["TSAN_OPTIONS"] = "halt_on_error=1"
else:
    config.available_features.add("no-sanitizer")
# The setuid test makes a root-owned setuid program and runs it as another
# user: it needs root and setpriv (util-linux).
import shutil
if os.geteuid() == 0 and shutil.which("setpriv"):
    config.available_features.add("root-setpriv")
# A test without /proc unmounts it in a mount namespace of its own.
import subprocess
if not run and shutil.which("unshare") and subprocess.run(
        ["unshare", "-m", "sh", "-c", "umount -l /proc"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("mount-namespace")

# kernel_events=1 needs perf_event_open for the thread's own software
# events (a VM without a PMU has them; seccomp or perf_event_paranoid 3 may
# forbid them). Asked of the kernel the way the runtime asks.
def perf_events_allowed():
    import ctypes, platform
    nr = {"x86_64": 298, "aarch64": 241}.get(platform.machine())
    if not nr or run:
        return False
    attr = (ctypes.c_uint8 * 64)()
    ctypes.c_uint32.from_buffer(attr, 0).value = 1  # PERF_TYPE_SOFTWARE
    ctypes.c_uint32.from_buffer(attr, 4).value = 64  # size
    ctypes.c_uint64.from_buffer(attr, 8).value = 5  # PAGE_FAULTS_MIN
    ctypes.c_uint64.from_buffer(attr, 40).value = (1 << 5) | (1 << 6)  # exclude_kernel, _hv
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.syscall(nr, ctypes.byref(attr), 0, -1, -1, 0)
    if fd < 0:
        return False
    os.close(fd)
    return True
if perf_events_allowed():
    config.available_features.add("perf-events")

# unshare(CLONE_NEWUSER) works here (a kernel or container may forbid user
# namespaces): runtime/unshare-user-namespace.c.
import subprocess
if not run and shutil.which("unshare") and subprocess.run(
        ["unshare", "--user", "true"], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("userns")

# The kernel writes core dumps to files in the crashing process's directory
# (core_pattern is no pipe and no path) and gdb can read them:
# runtime/crash-core-site.c.
def core_dumps_in_cwd():
    try:
        with open("/proc/sys/kernel/core_pattern") as f:
            pattern = f.read().strip()
    except OSError:
        return False
    return bool(pattern) and pattern[0] != "|" and "/" not in pattern
if not run and shutil.which("valgrind"):
    config.available_features.add("valgrind")
if not run and shutil.which("gdb") and core_dumps_in_cwd():
    config.available_features.add("core-dumps")

cross = " --target=" + target if target else ""
# Windows (utils/test-windows.sh): programs link statically with lld, the
# runtime with winpthreads and WaitOnAddress's import library. Tests that
# need what Windows lacks (fork, POSIX signals, /proc, ELF) say
# `UNSUPPORTED: windows` with the reason; the rest run under Wine.
windows = "mingw" in target or "windows" in target
rtlib_libs = ""
if windows:
    config.available_features.add("windows")
    sysroot = lit_config.params.get("spiketrap_sysroot", "")
    if sysroot:
        cross += " --sysroot=" + sysroot
    cross += (" -fuse-ld=lld -static -pthread -Wno-unused-command-line-argument"
              " -include " + os.path.join(config.test_source_root, "Inputs",
                                          "windows_stderr.h"))
    rtlib_libs = " -lpthread -lsynchronization"
else:
    config.available_features.add("linux")
# The hardening flags distributions build with, for the target's CPU.
import platform
hardening = "-fstack-protector-strong -D_FORTIFY_SOURCE=3 " + (
    "-mbranch-protection=standard" if (target or platform.machine()).startswith("aarch64")
    else "-fcf-protection=full")

config.substitutions += [
    ("%hardening", hardening),
    # The report tool, from the source tree (before %spiketrap: a prefix).
    ("%spiketrap_report", "python3 -B " + os.path.join(
        os.path.dirname(config.test_source_root), "utils", "spiketrap-report")),
    ("%clangxx", os.path.join(tools, "clang++") + cross + san),
    ("%clang", os.path.join(tools, "clang") + cross + san),
    # Runs a program built by the test: on the host, the program itself.
    ("%run", run),
    ("%opt", os.path.join(tools, "opt") + " -load-pass-plugin=" + plugin),
    # Runtime tests time every function, whatever the size heuristics say.
    ("%spiketrap_all", st + " -mllvm -spiketrap-instrument-all"),
    # The front-end plugin: attributes and no_instrument_function.
    ("%spiketrap_clang", "-fplugin=" + config.spiketrap_clang_plugin),
    ("%spiketrap", st),
    ("%rtlib", runtime + rtlib_libs),
    # The weak no-op hooks for shared libraries, built beside the runtime.
    ("%noop", os.path.join(os.path.dirname(runtime), "libspiketrap_noop.a")),
    ("%plugin", plugin),
    ("%inc", config.spiketrap_include),
    ("%build_root", config.spiketrap_build_root),
    ("%cmake", config.cmake),
    ("%llvm_tools", tools),
    # The build the runtime under test is in (the Windows one's, for
    # test/windows/cmake-toolchain.test).
    ("%windows_build", os.path.dirname(os.path.dirname(runtime))),
]
config.available_features.add("llvm%d" % config.llvm_version_major)
