# Writes the text of IN as one C++ raw string literal into OUT, for
# `#include` as an initializer: the HTML report's page is a real file in
# the source tree, edited as HTML, and still part of the binary.
# Usage: cmake -DIN=page.html -DOUT=page.inc -P EmbedText.cmake
file(READ "${IN}" text)
string(FIND "${text}" ")tessera_page\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw string's closing delimiter")
endif()
file(WRITE "${OUT}.tmp" "R\"tessera_page(${text})tessera_page\"\n")
file(RENAME "${OUT}.tmp" "${OUT}")
