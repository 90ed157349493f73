# The wem scenario data's tests: tests/unit/test_wem_data.c, registered with every unit test by
# tests/CMakeLists.txt, reads the embedded scenarios (rules/wem/data.cmake) through berthier_rules.
# data.cmake includes itself once, so this only matters in a tree whose rules/wem/CMakeLists.txt
# does not include it yet.
if(EXISTS ${CMAKE_SOURCE_DIR}/rules/wem/data.cmake AND TARGET berthier_rules)
  include(${CMAKE_SOURCE_DIR}/rules/wem/data.cmake)
endif()
