import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { KENYA_COUNTIES } from '@spc/shared-contracts/locations';
import { Public } from '../common/access.decorators';
import { MessageDto } from '../users/dto/user.dto';

class SubCountyDto {
  @ApiProperty({ example: 'Ruiru' }) name!: string;
  @ApiProperty({ type: [String], example: ['Biashara', 'Gatongora'] }) wards!: string[];
}

class CountyDto {
  @ApiProperty({ example: '022' }) code!: string;
  @ApiProperty({ example: 'Kiambu' }) name!: string;
  @ApiProperty({ type: [SubCountyDto] }) sub_counties!: SubCountyDto[];
}

class CountiesResponseDto extends MessageDto {
  @ApiProperty({ type: [CountyDto] }) counties!: CountyDto[];
}

@ApiTags('locations')
@Controller('locations')
export class LocationsController {
  @Get('counties')
  @Public()
  @Header('Cache-Control', 'public, max-age=86400')
  @ApiOperation({ summary: "Kenya's 47 counties with their sub-counties and wards" })
  @ApiOkResponse({ type: CountiesResponseDto })
  counties(): CountiesResponseDto {
    return {
      success: true,
      message: 'Counties retrieved',
      counties: KENYA_COUNTIES as CountyDto[],
    };
  }
}
