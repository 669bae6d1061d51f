import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `file-unreadable <path>`: as a user who cannot read the file at `<path>` (`nobody`, when the
/// probe runs as root, which reads any file), loads it, changes the value and saves it.
/// Prints the load error and the save error, one a line, to standard error; fails if the save
/// succeeds.
func unreadableFile(path: String) async {
  if geteuid() == 0 {
    // NB: The group first: once the user is dropped, the group can no longer be changed.
    guard setgid(65_534) == 0, setuid(65_534) == 0 else { fail("Could not become 'nobody'") }
  }
  await withDependencies {
    $0.defaultFileStorage = .fileSystem(scheduler: ManualWriteScheduler())
  } operation: {
    @Shared(.fileStorage(URL(fileURLWithPath: path))) var value = 0
    let loadError = $value.loadError.map { "\($0)" } ?? "none"
    $value.withLock { $0 = 1 }
    do {
      try await $value.save()
      fail("save() succeeded over an unreadable file")
    } catch {
      let saveError = $value.saveError.map { "\($0)" } ?? "none"
      FileHandle.standardError.write(Data("load: \(loadError)\nsave: \(saveError)\n".utf8))
    }
  }
}
