#pragma once

#include <stdexcept>
#include <string>

namespace rebirth {

// Bad user input: names the file (or "<fen>", "<command line>"), the 1-based line (0 when
// not applicable) and the offending word. what() is the full message printed to the user.
class InputError : public std::runtime_error {
  public:
    InputError(std::string file, int line, std::string word, const std::string& reason);

    const std::string& file() const { return file_; }
    int line() const { return line_; }
    const std::string& word() const { return word_; }
    const std::string& reason() const { return reason_; }

  private:
    std::string file_;
    int line_;
    std::string word_;
    std::string reason_;
};

}  // namespace rebirth
