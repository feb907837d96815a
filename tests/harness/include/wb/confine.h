/**
 * @file confine.h
 * @brief The system-call wall around a student's host function: a seccomp
 *        allow-list installed in the child process that calls it
 *        (wb/isolated.h), after CUDA is initialised there and before the
 *        function runs.
 *
 * The object check (wbcore/object_check.py) keeps system calls and process
 * control out of a host exercise's object, but code can still reach the C
 * library through pointer arithmetic, or make machine code at run time. This
 * filter holds whatever the function does: no exec, no new processes (a child
 * with CUDA may start threads of its own; one without may not, and its
 * address space is limited), no file opened for writing or created, no
 * renaming, removing, linking or changing files, no sockets, no tracing, no
 * signals to another process, no leaving its process group (setsid, setpgid),
 * no mounts. A child that does not use CUDA may not reach the file system by
 * a path at all (no open, even for reading, no stat, access or readlink):
 * whatever it could read, it could show in an exception's message, which the
 * student's report quotes.
 * What the CUDA runtime and the harness still need after initialisation is
 * allowed (confine.cpp says why, call by call); anything else fails with
 * EPERM, so an unexpected call of the runtime fails visibly instead of
 * ending the process; the plainly hostile calls end the process (SIGSYS).
 */
#pragma once

#include <string>

namespace wb {

/**
 * @brief Cuts a forked child off from the test process's open files: closes
 *        every file descriptor but stdout, stderr and @p keepFd (the pipe to
 *        the parent), puts /dev/null on stdin, and has the child killed when
 *        the test process ends. Call it first in the child, before CUDA opens
 *        files of its own.
 */
void detachFromTestProcess(int keepFd);

/**
 * @brief Confines the calling process for the rest of its life.
 *
 * In this order: the file-size and process-count limits to 0 (a second layer
 * under the filter), for a child without CUDA an address-space limit of
 * 512 MiB above its size now, no new privileges, then the seccomp filter, on
 * every thread of the process (CUDA's included). A child without CUDA may
 * start no thread either. Call it in a forked child only, after CUDA is
 * initialised there if the child uses CUDA (the runtime opens its device
 * files for writing, which the filter then refuses).
 *
 * @param usesCuda whether the child initialised CUDA (wb::ChildSetup other
 *        than HostOnly)
 *
 * @return "" when the filter is in place, else why not (the caller must then
 *         not run the student's code).
 */
std::string confineThisProcess(bool usesCuda);

/**
 * @brief Refuses, for the rest of the calling process's life and in every
 *        process it starts, the system calls that administer the machine or
 *        the sandbox around it: mounts, namespaces, kernel modules, BPF,
 *        tracing, keys, clocks (confine.cpp lists them, with why), with EPERM;
 *        every other call is allowed. Also sets no-new-privileges.
 *
 * The wall for a run that keeps CAP_SYS_ADMIN because Nsight Compute needs
 * it (wbcore/sandbox.py): the capability then opens none of those calls.
 * bin/wb_without_admin_calls installs it and runs a command.
 *
 * @return "" when the filter is in place, else why not.
 */
std::string refuseAdministrationCalls();

}  // namespace wb
