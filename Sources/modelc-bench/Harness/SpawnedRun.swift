import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One run of a whole program as a user's shell runs it: spawned (`posix_spawn`), its standard
/// output drained through a pipe, waited for. Measures the wall time from the spawn to the
/// reaped exit and the peak resident set `wait4` reports (`ru_maxrss`: the program's own, or
/// the spawning process's high-water mark at the spawn when that is larger, as Linux carries it
/// across `exec`; reset it first with ``Measure/resetPeakMemory()``).
struct SpawnedRun {
  var seconds: Double
  var status: Int32
  var output: [UInt8]
  var peakMemoryBytes: Int

  /// Runs `executable` with `arguments` and `environment` (`NAME=value` entries); its standard
  /// error goes to the file `errorFile`.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String], errorFile: String
  ) throws -> SpawnedRun {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { throw BenchmarkError("cannot make a pipe: errno \(errno)") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    let clock = ContinuousClock()
    let start = clock.now
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    close(pipeEnds[1])
    guard spawned == 0 else {
      close(pipeEnds[0])
      throw BenchmarkError("cannot run \(executable): error \(spawned)")
    }
    var output: [UInt8] = []
    output.reserveCapacity(1 << 16)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
      if count > 0 {
        output.append(contentsOf: buffer[0..<count])
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    close(pipeEnds[0])
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let elapsed = clock.now - start
    return SpawnedRun(
      seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
      // The exit code when the program exited; 128 + the signal when a signal ended it.
      status: status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), output: output,
      peakMemoryBytes: Int(usage.ru_maxrss) * 1024)
  }
}
