// Property tests of the engine come with issue 6.
