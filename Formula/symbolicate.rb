# Homebrew formula for symbolicate. The repository is its own tap:
#   brew tap OWNER/symbolicate https://github.com/OWNER/symbolicate
#   brew install --HEAD OWNER/symbolicate/symbolicate
# It builds with the Swift of Xcode 26 (6.2, which the dependencies' manifests need) against
# Homebrew's libdwarf (the dwarfutils formula; `libdwarf` is only an alias). ELF files are read
# by the package's own Swift reader on macOS, so no libelf is needed.
class Symbolicate < Formula
  desc "Symbolicate Apple crash reports and Linux Swift backtraces from dSYMs and DWARF"
  homepage "https://github.com/OWNER/symbolicate"
  head "https://github.com/OWNER/symbolicate.git", branch: "main"
  license "Apache-2.0"

  depends_on "pkgconf" => :build
  depends_on xcode: ["26.0", :build]
  depends_on "dwarfutils"
  depends_on macos: :sonoma

  uses_from_macos "zlib"

  def install
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "symbolicate"
    system "scripts/install.sh", "install", ".build/release/symbolicate", prefix
    # The report and dSYMs `make demo` uses, for `brew test` and for trying it out.
    pkgshare.install "Fixtures/reports/swift-trap.ips"
    (pkgshare/"dsyms").install Dir["Fixtures/dsyms/*.dSYM"]
  end

  test do
    output = shell_output("#{bin}/symbolicate --color never #{pkgshare}/swift-trap.ips #{pkgshare}/dsyms")
    assert_match "static JSONScanner.field(_:key:)", output
    assert_match "Profile.swift:28", output
    assert_path_exists man1/"symbolicate.1"
  end
end
