/// A key's hold on the record of its file: the record stays while a key holds it.
final class FileHolder: Sendable {
  let file: StoredFile

  init(file: StoredFile) {
    self.file = file
  }

  deinit {
    file.holderRemoved()
  }
}
