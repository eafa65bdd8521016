// libFuzzer target: the cluster job-file reader (issue 10). Bad input must end in InputError;
// any other exception, a sanitizer report or a hang is a bug. Globs are resolved against a
// small fixture directory made at start-up; inputs naming a path outside it (absolute or
// with "..") are refused, so the fuzzer never reads the rest of the file system.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "rebirth/cluster/job.h"
#include "rebirth/error.h"

namespace rebirth::cluster {
namespace {

namespace fs = std::filesystem;

fs::path fixture_dir;

// Writes the fixture: one- and two-problem files, a bad file and a subdirectory.
void make_fixture() {
    char tmpl[] = "/tmp/rebirth-fuzz-job-XXXXXX";
    if (!::mkdtemp(tmpl)) std::abort();
    fixture_dir = tmpl;
    const std::string problem = "BeginProblem\nStipulation #2\nPieces\nWhite Ke1 Qd1\nBlack Ke8\nEndProblem\n";
    const std::string two =
        "BeginProblem\nStipulation #1\nCondition Circe\nPieces\nWhite Ke1 Ra1\nBlack Ke8\n"
        "NextProblem\nStipulation h#1\nPieces\nWhite Ke1\nBlack Ke8 Pd7\nEndProblem\n";
    fs::create_directories(fixture_dir / "sub");
    std::ofstream(fixture_dir / "one.inp") << problem;
    std::ofstream(fixture_dir / "two.inp") << two;
    std::ofstream(fixture_dir / "bad.inp") << "BeginProblem\nStipulation #2\nPieces\nWhite Kz9\nEndProblem\n";
    std::ofstream(fixture_dir / "sub" / "one.inp") << problem;
    std::ofstream(fixture_dir / "sub" / "three.inp") << two;
    std::atexit([] {
        std::error_code ec;
        fs::remove_all(fixture_dir, ec);
    });
}

// Whether some string of the JSON value names a path outside the fixture directory.
bool escapes(const nlohmann::json& v) {
    if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        return (!s.empty() && s[0] == '/') || s.find("..") != std::string::npos;
    }
    if (v.is_structured())
        for (const auto& [key, sub] : v.items())
            if (escapes(sub)) return true;
    return false;
}

}  // namespace
}  // namespace rebirth::cluster

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    rebirth::cluster::make_fixture();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace rebirth::cluster;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const nlohmann::json root = nlohmann::json::parse(text, nullptr, false);
    if (!root.is_discarded() && escapes(root)) return -1;
    try {
        parse_job(text, "fuzz.json", fixture_dir.string());
    } catch (const rebirth::InputError&) {
    }
    return 0;
}
