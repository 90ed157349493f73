# The wem tests: every tests/wem_<area>.cmake adds what its area's tests need (the test
# programs themselves are tests/unit/test_wem_*.c, registered by tests/CMakeLists.txt).
file(GLOB WEM_TEST_CMAKES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/wem_*.cmake)
list(SORT WEM_TEST_CMAKES)
foreach(f ${WEM_TEST_CMAKES})
  include(${f})
endforeach()
