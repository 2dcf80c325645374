from tools.cli import main

main()
