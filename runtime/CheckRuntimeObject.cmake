# Run after the partial link: the runtime object must link into a C program
# whatever compiler, linker and objcopy built it. It may define only the
# public API (spiketrap_*, __spiketrap_*) and the libc functions it
# interposes (dlclose, unshare, setns, prctl, _exit, _Exit, the exec calls, sigaction, signal, pthread_setname_np,
# __cxa_begin_catch, and the waiting calls of spiketrap_waits.inc; weakly),
# and may refer to no C++ symbol.
# cmake -DNM=<nm> -DOBJ=<spiketrap_rt.o> -P CheckRuntimeObject.cmake
execute_process(COMMAND ${NM} -g --defined-only ${OBJ}
  OUTPUT_VARIABLE Defined RESULT_VARIABLE Rc)
if(Rc)
  message(FATAL_ERROR "spiketrap: '${NM}' failed on ${OBJ}")
endif()
execute_process(COMMAND ${NM} -u ${OBJ} OUTPUT_VARIABLE Undefined)
# The waiting calls, read from the list that generates them.
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/spiketrap_waits.inc WaitLines
  REGEX "^SPIKETRAP_WAIT(_OWN)?\\(")
set(Waits "")
foreach(L IN LISTS WaitLines)
  string(REGEX REPLACE "^SPIKETRAP_WAIT(_OWN)?\\(([a-z_0-9]+).*" "\\2" W "${L}")
  list(APPEND Waits ${W})
endforeach()
list(JOIN Waits "|" Waits)
set(Bad "")
string(REGEX MATCHALL "[^\n]+" Lines "${Defined}")
foreach(L IN LISTS Lines)
  string(REGEX REPLACE ".* " "" Sym "${L}")
  if(Sym MATCHES "^(dlclose|unshare|setns|prctl|_exit|_Exit|execve|execv|execvp|execvpe|execl|execle|execlp|execveat|fexecve|sigaction|signal|sigprocmask|pthread_sigmask|pthread_setname_np|__cxa_begin_catch|${Waits})$")
    # Weak, so that a program's own definition of the name wins.
    if(NOT L MATCHES " [WV] [^ ]+$")
      list(APPEND Bad "not weak: ${Sym}")
    endif()
  elseif(NOT Sym MATCHES "^(__)?spiketrap_")
    list(APPEND Bad "exported: ${Sym}")
  endif()
endforeach()
string(REGEX MATCHALL "[^\n]+" Lines "${Undefined}")
foreach(L IN LISTS Lines)
  string(REGEX REPLACE ".* " "" Sym "${L}")
  if(Sym MATCHES "^_Z")
    list(APPEND Bad "needs C++ library: ${Sym}")
  endif()
endforeach()
if(Bad)
  list(JOIN Bad "\n  " Msg)
  message(FATAL_ERROR "spiketrap: ${OBJ} would not link into a C program "
    "(or would clash with the program's own symbols):\n  ${Msg}")
endif()
