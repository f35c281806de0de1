// What the rewriter's files (rewrite.cpp, rewrite_shared.cpp,
// rewrite_variables.cpp) share: helpers for the text it reads and writes,
// and the passes on declarations that rewrite() runs. Internal to the
// rewriter's library.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace simt {

// rewrite.cpp's: `s` without its spaces, the newlines of [from, to), and the
// identifier before `end` in a declaration.
std::string collapse_space(const std::string& s);
std::string newlines_in(const std::string& s, std::size_t from, std::size_t to);
std::pair<std::size_t, std::size_t> name_before(const std::string& decl, std::size_t end);

// rewrite_variables.cpp's: whether `pos` is on a preprocessor directive's
// line; the program text from the previous ';', '{' or '}' to `end` (a
// declaration's specifiers); whether `text` has `word` as a word; whether
// every '{' open at `pos` opens a namespace or an `extern "C"` block.
bool on_directive_line(const std::string& s, std::size_t pos);
std::string declaration_head(const std::string& s, const std::vector<bool>& code, std::size_t end);
bool has_word(const std::string& text, const std::string& word);
bool at_namespace_scope(const std::string& s, const std::vector<bool>& code, std::size_t pos);

// `extern __shared__ T name[];` names the launch's dynamic shared memory,
// `__shared__` variables are registered (rewrite_shared.cpp), and
// `__device__` and `__constant__` variables at namespace scope registered
// (host pass) or shared with the host pass's (device pass): rewrite.hpp.
std::string rewrite_extern_shared(const std::string& s, const std::vector<bool>& code, const std::string& path);
std::string register_shared(const std::string& s, const std::vector<bool>& code);
std::string register_device_variables(const std::string& s, const std::vector<bool>& code);
std::string share_device_variables(const std::string& s, const std::vector<bool>& code);

}  // namespace simt
