@echo off
rem Bank Connector for Tally: demo installer for Windows (portal demo data).
rem It copies nothing and changes nothing; it only shows what would be installed.
echo Bank Connector for Tally 2.4.1
echo This is the demo build shipped with the customer portal's sample data.
echo A production installer registers the connector with TallyPrime.
pause
