# Homebrew formula for symbolicate. The repository is its own tap:
#   brew tap OWNER/symbolicate https://github.com/OWNER/symbolicate
#   brew install --HEAD OWNER/symbolicate/symbolicate
# It builds with the Swift of Xcode 26 (6.2, which the dependencies' manifests need; Xcode 26 runs
# on macOS 15.6 or later, and Package.swift's floor is macOS 15: :sequoia) against Homebrew's
# libdwarf (the dwarfutils formula; `libdwarf` is only an alias). ELF files are read by the
# package's own Swift reader on macOS, so no libelf is needed.
class Symbolicate < Formula
  # Where the source is: the one value that names the repository. The macOS workflow fills it
  # with the pushed commit's repository (.github/workflows/macos.yml); a fork's tap sets its own.
  REPOSITORY = "https://github.com/OWNER/symbolicate".freeze

  desc "Symbolicate Apple crash reports and Linux Swift backtraces from dSYMs and DWARF"
  homepage REPOSITORY
  head "#{REPOSITORY}.git", branch: "main"
  license "Apache-2.0"

  depends_on "pkgconf" => :build
  depends_on xcode: ["26.0", :build]
  depends_on "dwarfutils"
  depends_on macos: :sequoia

  uses_from_macos "zlib"

  def install
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "symbolicate"
    system "scripts/install.sh", "install", ".build/release/symbolicate", prefix
    # The report and dSYMs `make demo` uses, for `brew test` and for trying it out.
    pkgshare.install "Fixtures/reports/swift-trap.ips"
    (pkgshare/"dsyms").install Dir["Fixtures/dsyms/*.dSYM"]
  end

  # The demo (`make demo`): the bundled report symbolicated and explained from the bundled dSYMs.
  test do
    output = shell_output("#{bin}/symbolicate --color never --explain #{pkgshare}/swift-trap.ips #{pkgshare}/dsyms")
    assert_match "static JSONScanner.field(_:key:)", output
    assert_match "Profile.swift:28", output
    assert_path_exists man1/"symbolicate.1"
  end
end
