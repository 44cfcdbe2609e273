# kspmv_extract_kokkos_kernels_tests(SOURCE_TREE <dir> OUTPUT_DIR <dir> TEST_HEADERS <file>...
#                                    SUPPORT_HEADERS <file>... COMBINATIONS_VAR <var>
#                                    UNTYPED_VAR <var>)
#
# Copies Kokkos Kernels' test headers (paths relative to SOURCE_TREE) into OUTPUT_DIR, flat,
# applying these rules to every file (README.md in this folder explains them):
#
#   1. calls:       KokkosSparse::spmv(, and spmv( called unqualified (found there by
#                   argument-dependent lookup), become ::kspmv_kokkos_kernels_suite::spmv(;
#                   KokkosSparse::Experimental::spmv_struct( becomes
#                   ::kspmv_kokkos_kernels_suite::spmv_struct( (spmv_shim.hpp).
#   2. types:       #include <Test_Common_Test_All_Type_Combos.hpp> becomes
#                   #include "type_combination.hpp", which instantiates the one type combination
#                   of the including translation unit.
#   3. untyped:     a line that instantiates a test for the device alone, EXECUTE_TEST_X(TestDevice),
#                   is compiled only where KSPMV_KOKKOS_KERNELS_UNTYPED_TESTS is defined (one
#                   translation unit), since it names the same test in every unit.
#   4. inline:      an explicit specialisation of a function template (template <> and a function
#                   on the next line) is made inline: several translation units of the one
#                   executable include it.
#   5. GoogleTest:  an include of Kokkos Kernels' bundled gtest.h by relative path becomes
#                   #include <gtest/gtest.h>, the GoogleTest kspmv's tests link.
#
# Refuses (FATAL_ERROR) a tree whose test headers the rules do not fit: a test header without a
# redirected call or a type-combination include, or any file where a Kokkos Kernels SpMV call or
# the original include is left. Files are rewritten only when their content changes, so a
# reconfigure rebuilds nothing that did not change; editing a source file reconfigures.
#
# COMBINATIONS_VAR receives the type combinations Kokkos Kernels' Test_Common_Test_All_Type_Combos.hpp
# lists for a build without ETI restriction ("scalar,ordinal,offset" each); UNTYPED_VAR the test
# headers in which rule 3 applied.
function(kspmv_extract_kokkos_kernels_tests)
  cmake_parse_arguments(ARG "" "SOURCE_TREE;OUTPUT_DIR;COMBINATIONS_VAR;UNTYPED_VAR"
                        "TEST_HEADERS;SUPPORT_HEADERS" ${ARGN})
  set(shim "::kspmv_kokkos_kernels_suite")
  set(untyped_headers "")
  foreach(relative IN LISTS ARG_TEST_HEADERS ARG_SUPPORT_HEADERS)
    set(source "${ARG_SOURCE_TREE}/${relative}")
    if(NOT EXISTS "${source}")
      message(FATAL_ERROR "KSPMV_KOKKOSKERNELS_TESTS_FROM: ${source} does not exist")
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${source}")
    file(READ "${source}" text)
    get_filename_component(name "${relative}" NAME)

    # Rule 1. The character before an unqualified spmv( must not continue a name, a qualification
    # or a member access (check_spmv(, Test::spmv(, x.spmv( are other functions).
    string(REGEX MATCHALL "KokkosSparse::Experimental::spmv_struct[ \t]*\\(" struct_calls "${text}")
    string(REGEX REPLACE "KokkosSparse::Experimental::spmv_struct[ \t]*\\("
                         "${shim}::spmv_struct(" text "${text}")
    set(call "([^A-Za-z0-9_:.>])(KokkosSparse::)?spmv[ \t]*\\(")
    string(REGEX MATCHALL "${call}" calls "${text}")
    string(REGEX REPLACE "${call}" "\\1${shim}::spmv(" text "${text}")

    # Rule 2.
    set(combos_include "#include[ \t]*<Test_Common_Test_All_Type_Combos\\.hpp>")
    string(REGEX MATCHALL "${combos_include}" combos_includes "${text}")
    string(REGEX REPLACE "${combos_include}" "#include \"type_combination.hpp\"" text "${text}")

    # Rule 3.
    set(untyped "\n(EXECUTE_TEST_[A-Za-z0-9_]+\\(TestDevice\\))[ \t]*\n")
    string(REGEX MATCHALL "${untyped}" untyped_tests "${text}")
    string(REGEX REPLACE "${untyped}"
           "\n#if defined(KSPMV_KOKKOS_KERNELS_UNTYPED_TESTS)\n\\1\n#endif\n" text "${text}")

    # Rule 4. A function's line has a parenthesis before any brace or semicolon; a class
    # specialisation's does not.
    string(REGEX REPLACE "template <>\n([^\n(;{]+\\()" "template <>\ninline \\1" text "${text}")

    # Rule 5.
    string(REGEX REPLACE "#include[ \t]*\"[^\"]*gtest/gtest\\.h\"" "#include <gtest/gtest.h>"
                         text "${text}")

    if(relative IN_LIST ARG_TEST_HEADERS)
      if(NOT calls AND NOT struct_calls)
        message(FATAL_ERROR "KSPMV_KOKKOSKERNELS_TESTS_FROM: no KokkosSparse::spmv call found in "
                            "${source}; the extraction rules (${CMAKE_CURRENT_FUNCTION_LIST_FILE}) "
                            "do not fit this Kokkos Kernels")
      endif()
      if(NOT combos_includes)
        message(FATAL_ERROR "KSPMV_KOKKOSKERNELS_TESTS_FROM: ${source} does not include "
                            "Test_Common_Test_All_Type_Combos.hpp; the extraction rules "
                            "(${CMAKE_CURRENT_FUNCTION_LIST_FILE}) do not fit this Kokkos Kernels")
      endif()
      if(untyped_tests)
        list(APPEND untyped_headers "${name}")
      endif()
    endif()
    if(text MATCHES "KokkosSparse::(Experimental::)?spmv(_struct)?[^A-Za-z0-9_]" OR
       text MATCHES "Test_Common_Test_All_Type_Combos" OR text MATCHES "tpls/gtest")
      message(FATAL_ERROR "KSPMV_KOKKOSKERNELS_TESTS_FROM: ${source} still names a Kokkos Kernels "
                          "SpMV call or test include after the extraction rules "
                          "(${CMAKE_CURRENT_FUNCTION_LIST_FILE}): '${CMAKE_MATCH_0}'")
    endif()

    set(target "${ARG_OUTPUT_DIR}/${name}")
    set(previous "")
    if(EXISTS "${target}")
      file(READ "${target}" previous)
    endif()
    if(NOT previous STREQUAL text)
      file(WRITE "${target}" "${text}")
    endif()
  endforeach()

  # The combinations listed before the file's first #else: those of a build without ETI
  # restriction (the branch after it tests only what the library instantiated).
  set(combos_file "${ARG_SOURCE_TREE}/test_common/Test_Common_Test_All_Type_Combos.hpp")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${combos_file}")
  file(READ "${combos_file}" combos_text)
  string(FIND "${combos_text}" "#else" eti_branch)
  string(SUBSTRING "${combos_text}" 0 ${eti_branch} combos_text)
  set(identifier "[A-Za-z_][A-Za-z0-9_]*")
  set(instantiation "KOKKOSKERNELS_EXECUTE_TEST\\((${identifier}), (${identifier}), (${identifier}), TestDevice\\)")
  string(REGEX MATCHALL "${instantiation}" lines "${combos_text}")
  set(combinations "")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "${instantiation}" _ "${line}")
    list(APPEND combinations "${CMAKE_MATCH_1},${CMAKE_MATCH_2},${CMAKE_MATCH_3}")
  endforeach()
  if(NOT combinations)
    message(FATAL_ERROR "KSPMV_KOKKOSKERNELS_TESTS_FROM: no type combination found in "
                        "${combos_file}")
  endif()
  set(${ARG_COMBINATIONS_VAR} "${combinations}" PARENT_SCOPE)
  set(${ARG_UNTYPED_VAR} "${untyped_headers}" PARENT_SCOPE)
endfunction()
