/// A key's hold on the record of its file: the record stays while a key holds it.
final class FileHolder: Sendable {
  let file: FileRecord

  init(file: FileRecord) {
    self.file = file
  }

  deinit {
    file.io.uses.removed()
    file.holderRemoved()
  }
}
